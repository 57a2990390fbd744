import { GATEWAY_URL } from '../../../test-e2e/support/environment';
import type { KeyRing } from './creations';
import { RETURN_URL } from './creations';
import { runLoad, type LoadFigures } from './load';

/** Within the 24 hours an immediate payment may wait, and past any benchmark run. */
const UNPAID_LIFETIME_MS = 23 * 3_600_000;

/**
 * Phase 2: `POST /v1/payments` without customer_alias (the payment waits for its customer on the hosted
 * page, so nothing downstream is asked to pay it), closed loop over `connections` connections, without
 * Idempotency-Key: every request creates a payment. `keys` belong to merchants without a webhook URL, and
 * the payments expire a day later: the thousands they create do not expire into later runs' measurements,
 * nor send events to a receiver that is gone.
 */
export function measurePaymentCreation(
  keys: KeyRing,
  options: { connections: number; durationS: number },
): Promise<LoadFigures> {
  const body = JSON.stringify({
    amount: 1_000,
    return_url: RETURN_URL,
    expires_at: new Date(Date.now() + UNPAID_LIFETIME_MS).toISOString(),
  });
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
