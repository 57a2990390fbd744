-- CreateEnum
CREATE TYPE "payment_status" AS ENUM ('created', 'request_sent', 'accepted_deferred', 'succeeded', 'declined', 'expired', 'canceled', 'failed');

-- CreateEnum
CREATE TYPE "payment_mode" AS ENUM ('immediate', 'on_delivery');

-- CreateEnum
CREATE TYPE "attempt_status" AS ENUM ('pending', 'sent', 'accepted_deferred', 'succeeded', 'declined', 'expired', 'failed');

-- CreateTable
CREATE TABLE "outbox" (
    "id" TEXT NOT NULL,
    "routing_key" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" BYTEA NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(6),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbox" (
    "consumer" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_pkey" PRIMARY KEY ("consumer","message_id")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" "payment_status" NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "mode" "payment_mode" NOT NULL,
    "fee_rate_bps" INTEGER NOT NULL,
    "fee_fixed_amount" BIGINT NOT NULL,
    "fee_amount" BIGINT,
    "net_amount" BIGINT,
    "reference" TEXT,
    "description" TEXT,
    "return_url" TEXT NOT NULL,
    "cancel_url" TEXT,
    "checkout_url" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_attempts" (
    "id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "tx_id" TEXT NOT NULL,
    "status" "attempt_status" NOT NULL,
    "payer_alias" TEXT NOT NULL,
    "payer_alias_masked" TEXT NOT NULL,
    "duplicate" BOOLEAN NOT NULL DEFAULT false,
    "failure_code" TEXT,
    "reason_code" TEXT,
    "end_to_end_id" TEXT,
    "dispatch_after" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "payment_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "key" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "request_fingerprint" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("merchant_id","livemode","key")
);

-- CreateIndex
CREATE INDEX "outbox_unpublished_idx" ON "outbox"("published_at", "created_at", "id");

-- CreateIndex
CREATE INDEX "payments_list_idx" ON "payments"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "payments_reference_idx" ON "payments"("merchant_id", "livemode", "reference");

-- CreateIndex
CREATE INDEX "payments_expiry_idx" ON "payments"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "payment_attempts_tx_id_key" ON "payment_attempts"("tx_id");

-- CreateIndex
CREATE INDEX "payment_attempts_dispatch_idx" ON "payment_attempts"("dispatch_after");

-- CreateIndex
CREATE UNIQUE INDEX "payment_attempts_payment_sequence_key" ON "payment_attempts"("payment_id", "sequence");

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");

-- AddForeignKey
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
