-- AlterTable
ALTER TABLE "endpoints" ADD COLUMN     "previous_secret_ciphertext" TEXT,
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(6);
