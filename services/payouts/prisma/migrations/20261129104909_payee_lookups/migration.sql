-- CreateTable
CREATE TABLE "payee_lookups" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "alias_masked" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(6) NOT NULL,
    "outcome" TEXT,

    CONSTRAINT "payee_lookups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payee_lookups_merchant_idx" ON "payee_lookups"("merchant_id", "livemode", "requested_at");

-- CreateIndex
CREATE INDEX "payee_lookups_requested_at_idx" ON "payee_lookups"("livemode", "requested_at");
