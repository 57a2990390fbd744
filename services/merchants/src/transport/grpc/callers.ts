import type { merchantsV1 } from '@sika/contracts';
import type { GrpcCallers } from '@sika/platform';

/**
 * Who may call each method (mutual TLS identities; anyone else gets PERMISSION_DENIED). Accounts and keys
 * are managed from the dashboard and by operators (CLI); only an operator approves an activation; the
 * gateway only authenticates keys; payments reads a merchant's fee schedule; the outbox of emails is written
 * from the dashboard and read by operators.
 */
export const MERCHANTS_CALLERS = {
  createMerchant: ['dashboard-web', 'cli'],
  renewSecretKey: ['dashboard-web', 'cli'],
  listSecretKeys: ['dashboard-web', 'cli'],
  requestActivation: ['dashboard-web'],
  approveActivation: ['cli'],
  authenticateKey: ['gateway'],
  getMerchant: ['payments', 'dashboard-web', 'cli'],
  // The dashboard records and withdraws the emails of the changes made there; operators read them.
  recordEmail: ['dashboard-web'],
  cancelEmail: ['dashboard-web'],
  listEmails: ['cli'],
} as const satisfies GrpcCallers<merchantsV1.MerchantsServiceServer>;
