import { request } from 'undici';

import { GATEWAY_URL } from '../../../test-e2e/support/environment';
import type { StatusTally } from './stats';

/** The simulator's payer behind this alias pays every request-to-pay once its payer delay has passed. */
export const PAYING_ALIAS = '+225 0000000001';
export const RETURN_URL = 'https://shop.example/r';

export interface CreationOutcome {
  /** The payment's id when the API created it. */
  paymentId?: string;
  /** Retry-After of a 429/503, in milliseconds. */
  retryAfterMs?: number;
}

/** Secret keys used in turn, so that load spread over several merchants stays under each key's rate limit. */
export class KeyRing {
  private next = 0;

  constructor(readonly keys: readonly string[]) {
    if (keys.length === 0) throw new Error('KeyRing needs at least one key');
  }

  take(): string {
    const key = this.keys[this.next % this.keys.length] as string;
    this.next += 1;
    return key;
  }
}

const PAID_PAYMENT = JSON.stringify({ amount: 1_000, customer_alias: PAYING_ALIAS, return_url: RETURN_URL });

/**
 * `POST /v1/payments` for the paying alias, its status recorded in `tally`. Through undici's `request`, not
 * `fetch`: the load generator shares the stack's cores, and on Node 20 `fetch` (web streams, abort signals)
 * was half of this process's CPU profile under the paid-payment load.
 */
export async function createPaidPayment(keys: KeyRing, tally: StatusTally): Promise<CreationOutcome> {
  try {
    const response = await request(`${GATEWAY_URL}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.take()}`, 'content-type': 'application/json' },
      body: PAID_PAYMENT,
    });
    const body = (await response.body.json()) as { id?: string };
    const header = response.headers['retry-after'];
    const retryAfter = typeof header === 'string' ? header : undefined;
    tally.record(response.statusCode, retryAfter);
    if (response.statusCode >= 200 && response.statusCode < 300 && body.id) return { paymentId: body.id };
    const seconds = Number(retryAfter);
    return Number.isFinite(seconds) && retryAfter !== undefined ? { retryAfterMs: seconds * 1_000 } : {};
  } catch {
    // No response, or one whose body is not JSON: the client sees a failure either way.
    tally.record('error');
    return {};
  }
}
