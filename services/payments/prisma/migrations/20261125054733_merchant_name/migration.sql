-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "merchant_name" TEXT;
