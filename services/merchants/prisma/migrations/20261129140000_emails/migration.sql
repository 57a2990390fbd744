-- CreateTable
CREATE TABLE "emails" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "to_address" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "send_after" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "sent_at" TIMESTAMPTZ(6),
    "last_error" TEXT,

    CONSTRAINT "emails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "emails_merchant_id_created_at_idx" ON "emails"("merchant_id", "created_at");

-- CreateIndex
CREATE INDEX "emails_created_at_idx" ON "emails"("created_at");

-- CreateIndex
CREATE INDEX "emails_status_send_after_idx" ON "emails"("status", "send_after");
