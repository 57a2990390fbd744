-- Hand-written first: no posting may be written between the backfill below and the trigger that keeps the
-- balances from then on, or its amount would be in neither. Postings are locked before accounts, in the order
-- the ledger's writing statement takes them (INSERT INTO postings … JOIN accounts), so that a write in flight
-- and this migration wait for each other instead of deadlocking. Both wait for this migration's commit: a few
-- seconds on millions of postings.
LOCK TABLE "postings" IN SHARE MODE;
LOCK TABLE "accounts" IN ACCESS EXCLUSIVE MODE;

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "balance" BIGINT NOT NULL DEFAULT 0;

-- Hand-written below. Plain triggers, not CHECK constraints: Prisma 6.19's schema engine crashes on a shadow
-- database holding a CHECK constraint (see the first migration), which `db:new-migration --check` would hit.

UPDATE "accounts" AS a
   SET "balance" = t."total"
  FROM (SELECT "account_id", sum("amount") AS "total" FROM "postings" GROUP BY "account_id") AS t
 WHERE a."id" = t."account_id";

-- Each statement's postings are added to their accounts' balances, once per account (an UPDATE changes a row
-- once per statement: a batch of credits of one merchant is summed first), in the statement that writes them,
-- so the balance commits with its postings or not at all. One UPDATE per account, in id order: two statements
-- touching the same accounts wait for each other rather than deadlock, which one UPDATE of them all would not
-- promise (its join picks the order), and locking them all first (SELECT … ORDER BY … FOR UPDATE) writes each
-- row twice. An UPDATE of the balance locks its row FOR NO KEY UPDATE, which the postings' foreign-key checks
-- (KEY SHARE) do not wait for; the lock is held until the commit, which for the ledger's writes comes right
-- after. Accounts whose postings sum to zero in the statement are left alone (a credit whose fee is its whole
-- amount locks no merchant row).
CREATE FUNCTION "add_postings_to_balances"() RETURNS trigger LANGUAGE plpgsql
    SET search_path FROM CURRENT AS $$
DECLARE
    delta RECORD;
BEGIN
    FOR delta IN
        SELECT "account_id", sum("amount") AS "total"
          FROM "new_postings"
         GROUP BY "account_id"
        HAVING sum("amount") <> 0
         ORDER BY "account_id"
    LOOP
        UPDATE "accounts" SET "balance" = "balance" + delta."total" WHERE "id" = delta."account_id";
    END LOOP;
    RETURN NULL;
END;
$$;

-- Named to run after postings_balanced (statement triggers fire in name order): an unbalanced statement fails
-- before it locks any balance.
CREATE TRIGGER "postings_update_balances" AFTER INSERT ON "postings"
    REFERENCING NEW TABLE AS "new_postings"
    FOR EACH STATEMENT EXECUTE FUNCTION "add_postings_to_balances"();

-- A merchant's accounts (available, pending_payout) never go negative; Sika's own (owner `sika`:
-- scheme_settlement …) may, being the counterparts of the money merchants hold. The writers check first and
-- refuse with a clear error (a payout, a negative adjustment); this is the database's guarantee behind them.
CREATE FUNCTION "refuse_negative_merchant_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the % balance of % in % mode cannot be negative: %', NEW."kind", NEW."owner_id",
        CASE WHEN NEW."livemode" THEN 'live' ELSE 'test' END, NEW."balance" USING ERRCODE = 'check_violation';
END;
$$;

CREATE TRIGGER "accounts_merchant_balance_not_negative" BEFORE INSERT OR UPDATE ON "accounts"
    FOR EACH ROW WHEN (NEW."owner_id" <> 'sika' AND NEW."balance" < 0)
    EXECUTE FUNCTION "refuse_negative_merchant_balance"();

-- The balance is the sum of the postings, and postings are append-only: only the trigger above changes it
-- (pg_trigger_depth() is 0 for a statement sent by a client, the runtime role included, which cannot drop or
-- disable a trigger), and an account starts at zero.
CREATE FUNCTION "refuse_balance_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'accounts.balance is the sum of the account''s postings: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "accounts_balance_from_postings" BEFORE UPDATE ON "accounts"
    FOR EACH ROW WHEN (pg_trigger_depth() = 0)
    EXECUTE FUNCTION "refuse_balance_change"();
CREATE TRIGGER "accounts_balance_starts_at_zero" BEFORE INSERT ON "accounts"
    FOR EACH ROW WHEN (NEW."balance" <> 0)
    EXECUTE FUNCTION "refuse_balance_change"();

-- Room on each page for the next versions of its rows: an update of a balance then stays on its page (a HOT
-- update, no index entry written), which matters for a merchant whose available row changes with every credit.
ALTER TABLE "accounts" SET (fillfactor = 70);
