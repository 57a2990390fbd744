-- Hand-written (Prisma 6 cannot declare a partial index). The payer worker and the callback sender scan only
-- what is still to do; a row that is done keeps no entry in these indexes, so applying a decision or recording
-- a delivery writes one index entry fewer and the scans never walk the history.
DROP INDEX "payer_decisions_due_idx";
CREATE INDEX "payer_decisions_due_idx" ON "payer_decisions"("due_at") WHERE "applied_at" IS NULL;

DROP INDEX "notifications_due_idx";
CREATE INDEX "notifications_due_idx" ON "notifications"("next_attempt_at")
  WHERE "delivered_at" IS NULL AND "abandoned_at" IS NULL;
