-- AlterTable
ALTER TABLE "sessions" ADD COLUMN "authenticated_at" TIMESTAMPTZ(6);
