import type { ledgerV1 } from '@sika/contracts';
import type { GrpcCallers } from '@sika/platform';

/**
 * Who may call each method (mutual TLS identities; anyone else gets PERMISSION_DENIED). The ledger decides two
 * money calls itself: payouts' reservation, and operators' corrections (CLI); credits, refunds and releases
 * arrive as committed events. Reads for merchants go through the gateway and the dashboard; audits are the
 * operators' (CLI).
 */
export const LEDGER_CALLERS = {
  reservePayout: ['payouts'],
  listPayableBalances: ['payouts'],
  getBalance: ['gateway', 'dashboard-web'],
  listBalanceTransactions: ['gateway', 'dashboard-web'],
  summarizeCollections: ['dashboard-web'],
  getRefundsPayable: ['cli'],
  auditBooks: ['cli'],
  postAdjustment: ['cli'],
} as const satisfies GrpcCallers<ledgerV1.LedgerServiceServer>;
