-- Hand-written (Prisma 6 cannot declare a partial index). The watch reads only undecided invoices of payments
-- on delivery: an immediate payment's request never enters this index and a decided invoice leaves it, so
-- they write no entry here and the watch never walks the history.
DROP INDEX "payment_requests_watch_idx";
CREATE INDEX "payment_requests_watch_idx" ON "payment_requests"("checked_at" ASC NULLS FIRST)
  WHERE "on_delivery" AND "decision" IS NULL;
