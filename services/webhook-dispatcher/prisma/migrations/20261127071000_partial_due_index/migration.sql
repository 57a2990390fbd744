-- Hand-written (Prisma 6 cannot declare a partial index). The workers' scan reads pending deliveries by due
-- time; a final delivery keeps no entry in this index, so recording a delivery writes one index entry fewer
-- and the scan never walks the delivered history.
DROP INDEX "deliveries_next_attempt_idx";
CREATE INDEX "deliveries_due_idx" ON "deliveries"("next_attempt_at") WHERE "status" = 'pending';

-- No query looks deliveries up by endpoint, and an endpoint is never deleted (its foreign key is RESTRICT,
-- and endpoints are changed in place): the index was written on every delivery for nothing.
DROP INDEX "deliveries_endpoint_idx";
