-- AlterTable
ALTER TABLE "demandes" ADD COLUMN     "trace_context" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "trace_context" JSONB NOT NULL DEFAULT '{}';
