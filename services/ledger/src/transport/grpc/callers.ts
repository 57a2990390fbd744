import type { ledgerV1 } from '@sika/contracts';
import type { GrpcCallers } from '@sika/platform';

/**
 * Who may call each method (mutual TLS identities; anyone else gets PERMISSION_DENIED). Money moves only at
 * the request of the service that owns the movement: credits and refunds from payments, reservations from
 * payouts, corrections from operators (CLI). Reads for merchants go through the gateway and the dashboard;
 * audits are the operators' (CLI).
 */
export const LEDGER_CALLERS = {
  postPaymentCredit: ['payments'],
  postRefund: ['payments'],
  reservePayout: ['payouts'],
  releasePayout: ['payouts'],
  listPayableBalances: ['payouts'],
  getBalance: ['gateway', 'dashboard-web'],
  listBalanceTransactions: ['gateway', 'dashboard-web'],
  summarizeCollections: ['dashboard-web'],
  getRefundsPayable: ['cli'],
  auditBooks: ['cli'],
  postAdjustment: ['cli'],
} as const satisfies GrpcCallers<ledgerV1.LedgerServiceServer>;
