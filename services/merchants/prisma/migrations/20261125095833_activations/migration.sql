-- CreateTable
CREATE TABLE "activations" (
    "merchant_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "legal_name" TEXT NOT NULL,
    "registration_number" TEXT NOT NULL,
    "contact_name" TEXT NOT NULL,
    "contact_email" TEXT NOT NULL,
    "contact_phone" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(6) NOT NULL,
    "approved_at" TIMESTAMPTZ(6),

    CONSTRAINT "activations_pkey" PRIMARY KEY ("merchant_id")
);

-- AddForeignKey
ALTER TABLE "activations" ADD CONSTRAINT "activations_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Written by hand: merchants whose live mode an operator enabled by issuing a live key, before activation
-- requests existed, are approved; no details were collected for them.
INSERT INTO "activations" ("merchant_id", "status", "legal_name", "registration_number", "contact_name",
    "contact_email", "contact_phone", "requested_at", "approved_at")
SELECT "id", 'approved', '', '', '', '', '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM "merchants" WHERE "live_enabled";
