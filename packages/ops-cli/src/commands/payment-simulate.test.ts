import { paymentsV1 } from '@sika/contracts';

import type { Services } from '../services';
import { SimulationRefused, simulatePayment } from './payment-simulate';

const { AttemptStatus } = paymentsV1;

function attempt(txId: string, status: paymentsV1.AttemptStatus): paymentsV1.Attempt {
  return {
    id: `att_${txId}`,
    txId,
    status,
    payerAliasMasked: '+225 00****04',
    duplicate: false,
    createdAt: new Date(),
  };
}

/** The two calls the command makes, answering from a fixed payment; the simulator's calls are recorded. */
function servicesWith(
  payment: Partial<paymentsV1.Payment>,
): Pick<Services, 'getPayment' | 'payAtSimulator'> & { paid: string[] } {
  const paid: string[] = [];
  return {
    paid,
    getPayment: async (paymentId) =>
      ({ id: paymentId, livemode: false, attempts: [], ...payment }) as paymentsV1.Payment,
    payAtSimulator: async (txId) => {
      paid.push(txId);
      return { statut: 'IRREVOCABLE' };
    },
  };
}

describe('simulatePayment', () => {
  it("pays the latest request waiting at the customer's bank", async () => {
    const services = servicesWith({
      attempts: [
        attempt('SIKA1', AttemptStatus.ATTEMPT_STATUS_DECLINED),
        attempt('SIKA2', AttemptStatus.ATTEMPT_STATUS_ACCEPTED_DEFERRED),
        attempt('SIKA3', AttemptStatus.ATTEMPT_STATUS_FAILED),
      ],
    });
    await expect(simulatePayment(services, { paymentId: 'pay_1' })).resolves.toEqual({
      payment_id: 'pay_1',
      tx_id: 'SIKA2',
      statut: 'IRREVOCABLE',
    });
    expect(services.paid).toEqual(['SIKA2']);
  });

  it('refuses a live payment and a payment with nothing waiting, calling no simulator', async () => {
    const live = servicesWith({
      livemode: true,
      attempts: [attempt('SIKA1', AttemptStatus.ATTEMPT_STATUS_SENT)],
    });
    await expect(simulatePayment(live, { paymentId: 'pay_1' })).rejects.toThrow(SimulationRefused);
    const settled = servicesWith({ attempts: [attempt('SIKA1', AttemptStatus.ATTEMPT_STATUS_SUCCEEDED)] });
    await expect(simulatePayment(settled, { paymentId: 'pay_1' })).rejects.toThrow(/no request waiting/);
    expect([...live.paid, ...settled.paid]).toEqual([]);
  });
});
