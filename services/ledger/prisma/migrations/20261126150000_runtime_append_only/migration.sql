-- Hand-written: the books are append-only by privilege as well as by trigger. The role a migration runs as
-- owns the tables; every other role (the service's runtime role, given row privileges on the owner's new
-- tables by ALTER DEFAULT PRIVILEGES) keeps SELECT and INSERT and loses UPDATE, DELETE and TRUNCATE. Its
-- name depends on the deployment, hence the loop over the grantees instead of a fixed REVOKE.
DO $$
DECLARE
    role_name TEXT;
BEGIN
    FOR role_name IN
        SELECT DISTINCT acl.grantee::regrole::text
          FROM pg_class c, aclexplode(c.relacl) acl
         WHERE c.oid IN ('ledger_transactions'::regclass, 'postings'::regclass, 'balance_transactions'::regclass)
           AND acl.grantee NOT IN (0, c.relowner)
           AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format(
            'REVOKE UPDATE, DELETE, TRUNCATE ON "ledger_transactions", "postings", "balance_transactions" FROM %s',
            role_name);
    END LOOP;
END
$$;
