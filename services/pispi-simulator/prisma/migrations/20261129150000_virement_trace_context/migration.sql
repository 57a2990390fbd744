-- AlterTable
ALTER TABLE "virements" ADD COLUMN     "trace_context" JSONB NOT NULL DEFAULT '{}';
