-- CreateTable
CREATE TABLE "merchants" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "fee_rate_bps" INTEGER NOT NULL DEFAULT 100,
    "fee_fixed_amount" BIGINT NOT NULL DEFAULT 0,
    "live_enabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merchants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "secret_keys" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "hash" TEXT NOT NULL,
    "suffix" VARCHAR(4) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(6),

    CONSTRAINT "secret_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "secret_keys_hash_key" ON "secret_keys"("hash");

-- AddForeignKey
ALTER TABLE "secret_keys" ADD CONSTRAINT "secret_keys_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Written by hand: Prisma 6 cannot declare a partial index (its diff leaves this one alone).
-- At most one active key per merchant and mode; it also serves the lookup of that key when renewing.
CREATE UNIQUE INDEX "secret_keys_one_active_idx" ON "secret_keys"("merchant_id", "livemode") WHERE "revoked_at" IS NULL;
