import { renderAttempt } from '@sika/public-api';
import { requestWaitingAtTheBank } from '@sika/rules';

import type { Services } from '../services';

export interface PaymentSimulated {
  payment_id: string;
  tx_id: string;
  /** The request's status at the customer's bank once paid: IRREVOCABLE. */
  statut: string;
}

/** The payment cannot be simulated as asked: exit status 1, the reason on stderr. */
export class SimulationRefused extends Error {
  override readonly name = 'SimulationRefused';
}

/**
 * Alias …04's customer pays now, as they would at delivery: test mode's bank (the simulator) pays the
 * latest request waiting there, and Sika learns it as from any bank, by the scheme's callback. Never a
 * shortcut inside payments: the payment then settles (or is refunded) by the ordinary path.
 */
export async function simulatePayment(
  services: Pick<Services, 'getPayment' | 'payAtSimulator'>,
  { paymentId }: { paymentId: string },
): Promise<PaymentSimulated> {
  const payment = await services.getPayment(paymentId);
  if (payment.livemode)
    throw new SimulationRefused(`${paymentId} is a live payment: only test mode is simulated`);
  const waiting = requestWaitingAtTheBank(payment.attempts.map(renderAttempt));
  if (waiting === undefined) {
    throw new SimulationRefused(`${paymentId} has no request waiting at the customer's bank`);
  }
  const { statut } = await services.payAtSimulator(waiting.tx_id);
  return { payment_id: paymentId, tx_id: waiting.tx_id, statut };
}

export function describePaymentSimulated(result: PaymentSimulated): string {
  return `The customer paid ${result.tx_id} of ${result.payment_id} (${result.statut}); the payment follows.`;
}
