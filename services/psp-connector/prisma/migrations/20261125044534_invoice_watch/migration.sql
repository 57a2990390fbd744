-- AlterTable
ALTER TABLE "payment_requests" ADD COLUMN     "checked_at" TIMESTAMPTZ(6),
ADD COLUMN     "on_delivery" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "watch_until" TIMESTAMPTZ(6);

-- CreateIndex
CREATE INDEX "payment_requests_watch_idx" ON "payment_requests"("on_delivery", "decision", "checked_at");
