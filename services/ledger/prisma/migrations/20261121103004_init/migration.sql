-- CreateTable
CREATE TABLE "accounts" (
    "id" BIGSERIAL NOT NULL,
    "owner_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_transactions" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "ledger_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "postings" (
    "id" BIGSERIAL NOT NULL,
    "ledger_transaction_id" BIGINT NOT NULL,
    "account_id" BIGINT NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "postings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "balance_transactions" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "type" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "ledger_transaction_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "balance_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_owner_livemode_kind_key" ON "accounts"("owner_id", "livemode", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_transactions_source_kind_key" ON "ledger_transactions"("source_id", "kind");

-- CreateIndex
CREATE INDEX "postings_ledger_transaction_idx" ON "postings"("ledger_transaction_id");

-- CreateIndex
CREATE INDEX "postings_account_amount_idx" ON "postings"("account_id", "amount");

-- CreateIndex
CREATE UNIQUE INDEX "balance_transactions_seq_key" ON "balance_transactions"("seq");

-- CreateIndex
CREATE INDEX "balance_transactions_list_idx" ON "balance_transactions"("merchant_id", "livemode", "created_at" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "balance_transactions_ledger_transaction_idx" ON "balance_transactions"("ledger_transaction_id");

-- CreateIndex
CREATE UNIQUE INDEX "balance_transactions_source_type_key" ON "balance_transactions"("source_id", "type");

-- AddForeignKey
ALTER TABLE "postings" ADD CONSTRAINT "postings_ledger_transaction_id_fkey" FOREIGN KEY ("ledger_transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "postings" ADD CONSTRAINT "postings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "balance_transactions" ADD CONSTRAINT "balance_transactions_ledger_transaction_id_fkey" FOREIGN KEY ("ledger_transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written below: rules Prisma's schema language cannot express. Plain triggers only: CHECK constraints
-- and constraint triggers make Prisma 6.19's JS schema engine crash when it introspects the shadow database
-- (`RuntimeError: unreachable` on pg_constraint rows of type c/t), which would break `db:new-migration`.

-- Double entry. Postings are written one statement per ledger transaction, so this statement-level check sees
-- every posting of each ledger transaction the statement touched: none is zero, at least two, summing to zero.
CREATE FUNCTION "assert_postings_balanced"() RETURNS trigger LANGUAGE plpgsql
    SET search_path FROM CURRENT AS $$
DECLARE
    unbalanced RECORD;
BEGIN
    IF EXISTS (SELECT 1 FROM "new_postings" WHERE "amount" = 0) THEN
        RAISE EXCEPTION 'a posting cannot be zero' USING ERRCODE = 'check_violation';
    END IF;
    SELECT "ledger_transaction_id" AS id, count(*) AS postings, sum("amount") AS total INTO unbalanced
      FROM "postings"
     WHERE "ledger_transaction_id" IN (SELECT "ledger_transaction_id" FROM "new_postings")
     GROUP BY "ledger_transaction_id"
    HAVING count(*) < 2 OR sum("amount") <> 0
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger transaction % is unbalanced: % postings summing to %',
            unbalanced.id, unbalanced.postings, unbalanced.total USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "postings_balanced" AFTER INSERT ON "postings"
    REFERENCING NEW TABLE AS "new_postings"
    FOR EACH STATEMENT EXECUTE FUNCTION "assert_postings_balanced"();

-- Movements carry the sign of their type (spec §2.4) and are in XOF: with fee <= amount, a balance made of
-- them never goes negative.
CREATE FUNCTION "assert_balance_transaction_valid"() RETURNS trigger LANGUAGE plpgsql
    SET search_path FROM CURRENT AS $$
BEGIN
    IF NEW."currency" <> 'XOF' OR NOT (
        (NEW."type" IN ('payment', 'payout_reversal') AND NEW."amount" > 0)
        OR (NEW."type" IN ('fee', 'payout') AND NEW."amount" <= 0)
        OR NEW."type" = 'adjustment'
    ) THEN
        RAISE EXCEPTION 'invalid balance transaction: type %, amount %, currency %',
            NEW."type", NEW."amount", NEW."currency" USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER "balance_transactions_valid" BEFORE INSERT ON "balance_transactions"
    FOR EACH ROW EXECUTE FUNCTION "assert_balance_transaction_valid"();

-- The books are append-only: a mistake is corrected by a new (adjustment) transaction, never by an edit.
CREATE FUNCTION "refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "ledger_transactions_append_only" BEFORE UPDATE OR DELETE ON "ledger_transactions"
    FOR EACH ROW EXECUTE FUNCTION "refuse_change"();
CREATE TRIGGER "ledger_transactions_no_truncate" BEFORE TRUNCATE ON "ledger_transactions"
    FOR EACH STATEMENT EXECUTE FUNCTION "refuse_change"();
CREATE TRIGGER "postings_append_only" BEFORE UPDATE OR DELETE ON "postings"
    FOR EACH ROW EXECUTE FUNCTION "refuse_change"();
CREATE TRIGGER "postings_no_truncate" BEFORE TRUNCATE ON "postings"
    FOR EACH STATEMENT EXECUTE FUNCTION "refuse_change"();
CREATE TRIGGER "balance_transactions_append_only" BEFORE UPDATE OR DELETE ON "balance_transactions"
    FOR EACH ROW EXECUTE FUNCTION "refuse_change"();
CREATE TRIGGER "balance_transactions_no_truncate" BEFORE TRUNCATE ON "balance_transactions"
    FOR EACH STATEMENT EXECUTE FUNCTION "refuse_change"();
