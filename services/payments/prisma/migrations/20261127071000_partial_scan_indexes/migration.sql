-- Hand-written (Prisma 6 cannot declare a partial index). The expiry scheduler scans open payments and the
-- sweeper attempts still to send; a payment that is final, or an attempt the scheme answered, keeps no entry
-- in these indexes, so those writes add one index entry fewer and the scans never walk the history. The
-- attempts' predicate is on dispatch_after, not status: a later status change of an answered attempt touches
-- no indexed column and can stay a heap-only update.
DROP INDEX "payments_expiry_idx";
CREATE INDEX "payments_expiry_idx" ON "payments"("expires_at")
  WHERE "status" IN ('created', 'request_sent', 'accepted_deferred');

DROP INDEX "payment_attempts_dispatch_idx";
CREATE INDEX "payment_attempts_dispatch_idx" ON "payment_attempts"("dispatch_after")
  WHERE "dispatch_after" IS NOT NULL;
