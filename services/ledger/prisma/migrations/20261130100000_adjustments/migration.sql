-- CreateTable
CREATE TABLE "adjustments" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "amount" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "requested_by" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "adjustments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "adjustments_idempotency_key_key" ON "adjustments"("idempotency_key");

-- Hand-written: an adjustment is the record of who changed a merchant's money by hand, and why; like the books
-- it describes, it is never changed nor deleted, by trigger and, for every role but its owner, by privilege
-- (as …_runtime_append_only does for the books).
CREATE TRIGGER "adjustments_append_only" BEFORE UPDATE OR DELETE ON "adjustments"
    FOR EACH ROW EXECUTE FUNCTION "refuse_change"();
CREATE TRIGGER "adjustments_no_truncate" BEFORE TRUNCATE ON "adjustments"
    FOR EACH STATEMENT EXECUTE FUNCTION "refuse_change"();

DO $$
DECLARE
    role_name TEXT;
BEGIN
    FOR role_name IN
        SELECT DISTINCT acl.grantee::regrole::text
          FROM pg_class c, aclexplode(c.relacl) acl
         WHERE c.oid = 'adjustments'::regclass
           AND acl.grantee NOT IN (0, c.relowner)
           AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON "adjustments" FROM %s', role_name);
    END LOOP;
END
$$;
