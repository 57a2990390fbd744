-- payments and payouts keep their idempotency keys in tables of one shape, so that one store
-- (SqlIdempotencyKeyStore in @sika/platform) serves both: the record a key answered with is `resource_id`,
-- and the operation is stored (every key so far was for create_payout).
ALTER TABLE "idempotency_keys" RENAME COLUMN "payout_id" TO "resource_id";
ALTER TABLE "idempotency_keys" ADD COLUMN "operation" TEXT NOT NULL DEFAULT 'create_payout';
ALTER TABLE "idempotency_keys" ALTER COLUMN "operation" DROP DEFAULT;
