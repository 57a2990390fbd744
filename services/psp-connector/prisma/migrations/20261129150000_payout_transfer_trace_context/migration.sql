-- AlterTable
ALTER TABLE "payout_transfers" ADD COLUMN     "trace_context" JSONB NOT NULL DEFAULT '{}';
