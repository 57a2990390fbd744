import type { BooksAudit, BooksAuditStore } from './ports';

/**
 * The books as an audit reads them, in one mode: ledger transactions that do not balance, merchants whose
 * balance is negative or is not the sum of their movements, accounts whose maintained balance is not the sum
 * of their postings, what each payment was credited, and what is owed back to customers. Reading only; the
 * verdict is the auditor's.
 */
export class AuditBooks {
  constructor(private readonly store: BooksAuditStore) {}

  execute(livemode: boolean): Promise<BooksAudit> {
    return this.store.auditBooks(livemode);
  }
}
