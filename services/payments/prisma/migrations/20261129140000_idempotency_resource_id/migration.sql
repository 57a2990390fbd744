-- payments and payouts keep their idempotency keys in tables of one shape, so that one store
-- (SqlIdempotencyKeyStore in @sika/platform) serves both: the record a key answered with is `resource_id`.
ALTER TABLE "idempotency_keys" RENAME COLUMN "payment_id" TO "resource_id";
