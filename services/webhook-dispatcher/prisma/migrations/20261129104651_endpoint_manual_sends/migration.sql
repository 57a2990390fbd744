-- AlterTable
ALTER TABLE "endpoints" ADD COLUMN     "manual_sends" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "manual_sends_window" BIGINT NOT NULL DEFAULT 0;
