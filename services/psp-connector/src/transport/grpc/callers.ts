import type { pspV1 } from '@sika/contracts';
import type { GrpcCallers } from '@sika/platform';

/** Who may call each method (mutual TLS identities; anyone else gets PERMISSION_DENIED). */
export const PSP_CONNECTOR_CALLERS = {
  sendPaymentRequest: ['payments'],
  lookupPayee: ['payouts'],
} as const satisfies GrpcCallers<pspV1.PspConnectorServiceServer>;
