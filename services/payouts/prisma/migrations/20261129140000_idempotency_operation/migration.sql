-- payouts stores the operation of each idempotency key, as payments does, so that one store
-- (SqlIdempotencyKeyStore in @sika/platform) serves both. Every key so far was for create_payout; the default
-- stays, so a replica of the previous release, which inserts without the column, still runs on this schema.
ALTER TABLE "idempotency_keys" ADD COLUMN "operation" TEXT NOT NULL DEFAULT 'create_payout';
