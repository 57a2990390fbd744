import { payAtSimulator, SimulatorRefusal } from '@sika/pispi';
import { AppError, SERVICE_UNAVAILABLE_MESSAGE } from '@sika/platform';

import type { TestBank } from '../app/ports';

/**
 * The simulator as test mode's bank. It refuses what its customer cannot pay now (a payer who paid at once
 * or ignores requests, a request paid or past its deadline): no_request_waiting, in the API's words rather
 * than the scheme's. Any other failure (unreachable, a timeout) is the bank being away: 503.
 */
export function simulatorTestBank(baseUrl: string, timeoutMs: number): TestBank {
  return {
    async pay(txId) {
      try {
        await payAtSimulator(baseUrl, txId, timeoutMs);
      } catch (error) {
        if (error instanceof SimulatorRefusal && (error.status === 404 || error.status === 409)) {
          throw new AppError(
            'no_request_waiting',
            "The customer's bank has nothing to pay for this payment now: only the customers of +225 " +
              '0000000004 and +225 0000000007 pay when asked, while the request is waiting and before its deadline.',
            { cause: error },
          );
        }
        throw new AppError('service_unavailable', SERVICE_UNAVAILABLE_MESSAGE, { cause: error });
      }
    },
  };
}
