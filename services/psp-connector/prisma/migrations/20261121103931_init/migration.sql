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
CREATE TABLE "payment_requests" (
    "tx_id" VARCHAR(35) NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "amount" BIGINT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "payer_alias_masked" TEXT NOT NULL,
    "outcome" TEXT,
    "reason_code" TEXT,
    "end2end_id" TEXT,
    "decision" TEXT,
    "decision_reason" TEXT,
    "payment_end2end_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "payment_requests_pkey" PRIMARY KEY ("tx_id")
);

-- CreateTable
CREATE TABLE "scheme_webhooks" (
    "mode" TEXT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "callback_url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "registered_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "scheme_webhooks_pkey" PRIMARY KEY ("mode")
);

-- CreateTable
CREATE TABLE "scheme_callback_events" (
    "mode" TEXT NOT NULL,
    "ev_code" TEXT NOT NULL,
    "end2end_id" TEXT NOT NULL,
    "tx_id" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "effect" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "scheme_callback_events_pkey" PRIMARY KEY ("mode","ev_code","end2end_id")
);

-- CreateIndex
CREATE INDEX "outbox_unpublished_idx" ON "outbox"("published_at", "created_at", "id");

-- CreateIndex
CREATE INDEX "scheme_callback_events_tx_id_idx" ON "scheme_callback_events"("tx_id");
