-- AlterTable
ALTER TABLE "fund_returns" ADD COLUMN     "trace_context" JSONB NOT NULL DEFAULT '{}';
