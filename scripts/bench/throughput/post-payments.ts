import { GATEWAY_URL } from '../../../test-e2e/support/environment';
import type { KeyRing } from './creations';
import { RETURN_URL } from './creations';
import { runLoad, type LoadFigures } from './load';

/**
 * Phase 2: `POST /v1/payments` without customer_alias (the payment waits for its customer on the hosted
 * page, so nothing downstream is asked to pay it), closed loop over `connections` connections, without
 * Idempotency-Key: every request creates a payment.
 */
export function measurePaymentCreation(
  keys: KeyRing,
  options: { connections: number; durationS: number },
): Promise<LoadFigures> {
  const body = JSON.stringify({ amount: 1_000, return_url: RETURN_URL });
  return runLoad(
    GATEWAY_URL,
    {
      method: 'POST',
      path: '/v1/payments',
      prepare: () => ({
        headers: { authorization: `Bearer ${keys.take()}`, 'content-type': 'application/json' },
        body,
      }),
    },
    options,
  );
}
