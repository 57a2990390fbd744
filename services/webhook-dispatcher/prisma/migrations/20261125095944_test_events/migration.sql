-- A test event (webhook.test) is made by Sika itself: no message announced it.
-- AlterTable
ALTER TABLE "events" ALTER COLUMN "source_message_id" DROP NOT NULL;
