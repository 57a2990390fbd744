import type { payoutsV1 } from '@sika/contracts';
import type { GrpcCallers } from '@sika/platform';

/**
 * Who may call each method (mutual TLS identities; anyone else gets PERMISSION_DENIED): payouts from the
 * public API and the dashboard, the payout account and schedule from the dashboard and operators (CLI),
 * audits from operators.
 */
export const PAYOUTS_CALLERS = {
  createPayout: ['gateway', 'dashboard-web'],
  getPayout: ['gateway', 'dashboard-web'],
  listPayouts: ['gateway', 'dashboard-web'],
  setPayoutAccount: ['dashboard-web', 'cli'],
  confirmPayoutAccount: ['dashboard-web', 'cli'],
  getPayoutAccount: ['dashboard-web', 'cli'],
  setPayoutSchedule: ['dashboard-web', 'cli'],
  auditPayouts: ['cli'],
  findPayoutStatuses: ['ledger'],
} as const satisfies GrpcCallers<payoutsV1.PayoutsServiceServer>;
