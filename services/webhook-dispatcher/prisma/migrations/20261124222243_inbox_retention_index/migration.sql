-- CreateIndex
CREATE INDEX "inbox_processed_at_idx" ON "inbox"("processed_at");
