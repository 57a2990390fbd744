-- CreateIndex
CREATE INDEX "scheme_callback_events_received_at_idx" ON "scheme_callback_events"("received_at");
