import { api } from '../../../test-e2e/support/api';
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

/** `POST /v1/payments` for the paying alias, its status recorded in `tally`. */
export async function createPaidPayment(keys: KeyRing, tally: StatusTally): Promise<CreationOutcome> {
  try {
    const response = await api<{ id?: string }>(keys.take(), 'POST', '/v1/payments', {
      body: { amount: 1_000, customer_alias: PAYING_ALIAS, return_url: RETURN_URL },
    });
    const retryAfter = response.headers.get('retry-after') ?? undefined;
    tally.record(response.status, retryAfter);
    if (response.status >= 200 && response.status < 300 && response.body.id)
      return { paymentId: response.body.id };
    const seconds = Number(retryAfter);
    return Number.isFinite(seconds) && retryAfter !== undefined ? { retryAfterMs: seconds * 1_000 } : {};
  } catch {
    // No response, or one whose body is not JSON: the client sees a failure either way.
    tally.record('error');
    return {};
  }
}
