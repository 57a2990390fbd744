-- CreateEnum
CREATE TYPE "payout_status" AS ENUM ('reserving', 'pending', 'paid', 'failed', 'refused');

-- CreateEnum
CREATE TYPE "payout_method" AS ENUM ('automatic', 'manual');

-- CreateEnum
CREATE TYPE "payout_alias_type" AS ENUM ('phone', 'merchant_code', 'account_key');

-- CreateEnum
CREATE TYPE "payout_account_status" AS ENUM ('awaiting_confirmation', 'verified');

-- CreateEnum
CREATE TYPE "payout_schedule" AS ENUM ('daily', 'manual');

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
CREATE TABLE "payouts" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" "payout_status" NOT NULL,
    "method" "payout_method" NOT NULL,
    "requested_amount" BIGINT,
    "amount" BIGINT,
    "currency" TEXT NOT NULL,
    "alias_type" "payout_alias_type" NOT NULL,
    "alias" TEXT NOT NULL,
    "alias_masked" TEXT NOT NULL,
    "holder_name" TEXT NOT NULL,
    "failure_code" TEXT,
    "reason_code" TEXT,
    "automatic_for" DATE,
    "reserve_lease_until" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "paid_at" TIMESTAMPTZ(6),
    "failed_at" TIMESTAMPTZ(6),

    CONSTRAINT "payouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payout_accounts" (
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" "payout_account_status" NOT NULL,
    "alias_type" "payout_alias_type" NOT NULL,
    "alias" TEXT NOT NULL,
    "alias_masked" TEXT NOT NULL,
    "holder_name" TEXT NOT NULL,
    "holder_country" TEXT,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    "verified_at" TIMESTAMPTZ(6),

    CONSTRAINT "payout_accounts_pkey" PRIMARY KEY ("merchant_id","livemode")
);

-- CreateTable
CREATE TABLE "payout_settings" (
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "schedule" "payout_schedule" NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "payout_settings_pkey" PRIMARY KEY ("merchant_id","livemode")
);

-- CreateTable
CREATE TABLE "daily_payout_runs" (
    "day" DATE NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "completed_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "daily_payout_runs_pkey" PRIMARY KEY ("day","livemode")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "key" TEXT NOT NULL,
    "request_fingerprint" TEXT NOT NULL,
    "payout_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("merchant_id","livemode","key")
);

-- CreateIndex
CREATE INDEX "outbox_unpublished_idx" ON "outbox"("published_at", "created_at", "id");

-- CreateIndex
CREATE INDEX "inbox_processed_at_idx" ON "inbox"("processed_at");

-- CreateIndex
CREATE INDEX "payouts_list_idx" ON "payouts"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "payouts_reserving_idx" ON "payouts"("status", "reserve_lease_until");

-- CreateIndex
CREATE UNIQUE INDEX "payouts_automatic_day_key" ON "payouts"("merchant_id", "livemode", "automatic_for");

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");
