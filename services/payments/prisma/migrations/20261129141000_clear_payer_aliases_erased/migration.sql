-- Aliases stored in clear before they were sealed (20261126145340_sealed_payer_alias) were sealed by a round of
-- the service's payer-alias job, run every 5 minutes ever since. This migration ends them once, in SQL; SQL
-- cannot seal (AES-256-GCM under a key only the service holds), so it erases instead what no one needs: an
-- attempt that is no longer pending is never sent again, and its masked alias stays. A pending attempt still
-- needs its alias to be sent; one in clear exists only on a database no release since sealing has started
-- on (each sealed them all at its start), so the migration stops and says so rather than lose it.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "payment_attempts" WHERE "payer_alias" IS NOT NULL AND "status" = 'pending') THEN
    RAISE EXCEPTION 'pending attempts hold payer aliases in clear: start the release that sealed them (20261126145340_sealed_payer_alias) once, then migrate again';
  END IF;
END
$$;

UPDATE "payment_attempts" SET "payer_alias" = NULL WHERE "payer_alias" IS NOT NULL;
