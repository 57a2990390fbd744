-- The callback secret is sealed (AES-256-GCM, CALLBACK_SECRET_KEY) instead of stored in clear. SQL cannot
-- seal, so existing clear values stay in "secret" until the service seals them: at its next start, or with
-- `node dist/reseal-callback-secrets.js` (services/psp-connector/README.md, "Callback secrets at rest").
-- AlterTable
ALTER TABLE "scheme_webhooks" ADD COLUMN     "secret_ciphertext" TEXT,
ALTER COLUMN "secret" DROP NOT NULL;

