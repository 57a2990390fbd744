-- Every credit writes two movements, and each index of balance_transactions takes an entry per movement. No
-- read uses these two: movements are read by merchant (balance_transactions_list_idx), by id (the primary
-- key) and by source (balance_transactions_source_type_key). seq comes from its sequence, unique without an
-- index; a ledger transaction is never deleted (append-only triggers), so its foreign key needs no index on
-- this side.
DROP INDEX "balance_transactions_ledger_transaction_idx";

DROP INDEX "balance_transactions_seq_key";
