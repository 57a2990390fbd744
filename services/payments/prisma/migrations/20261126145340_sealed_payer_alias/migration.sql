-- Payer aliases are sealed at rest. SQL cannot seal them (AES-256-GCM under a key only the service holds):
-- the clear aliases already stored are sealed by the service's payer-alias job, whose first round runs at
-- start, which then nulls payer_alias. New attempts never write payer_alias.
-- AlterTable
ALTER TABLE "payment_attempts" ADD COLUMN     "payer_alias_sealed" TEXT,
ALTER COLUMN "payer_alias" DROP NOT NULL;
