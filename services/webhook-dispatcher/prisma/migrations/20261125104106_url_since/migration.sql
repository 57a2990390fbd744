-- AlterTable
ALTER TABLE "endpoints" ADD COLUMN     "url_since" TIMESTAMPTZ(6);

-- Endpoints with a URL today: counted from their creation, as nothing recorded when the URL came.
UPDATE "endpoints" SET "url_since" = "created_at" WHERE "url" IS NOT NULL;
