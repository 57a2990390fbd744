-- AlterTable
ALTER TABLE "payment_attempts" ADD COLUMN     "refund_status" TEXT;
