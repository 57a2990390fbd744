import type { paymentsV1 } from '@sika/contracts';
import type { GrpcCallers } from '@sika/platform';

/**
 * Who may call each method (mutual TLS identities; anyone else gets PERMISSION_DENIED): the public API and
 * the dashboard for a merchant's payments (the public API's test helpers too), the hosted page for its own two
 * calls, operators (CLI) for support reads and audits, the ledger for its continuous watch of the books.
 */
export const PAYMENTS_CALLERS = {
  createPayments: ['gateway'],
  createPayment: ['gateway'],
  getPayment: ['gateway', 'dashboard-web'],
  listPayments: ['gateway', 'dashboard-web'],
  cancelPayment: ['gateway', 'dashboard-web'],
  expirePayment: ['gateway'],
  getCheckoutPayment: ['checkout-web', 'cli'],
  startAttempt: ['checkout-web'],
  auditPayments: ['cli'],
  findSucceededPayments: ['ledger'],
} as const satisfies GrpcCallers<paymentsV1.PaymentsServiceServer>;
