import { AppError } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import { requestWaitingAtTheBank } from '@sika/rules';

import type { Peers, TestBank } from './ports';

/**
 * Test mode only: the customer of a request waiting at their bank (alias …04) pays it now, through the
 * simulator, as a bank would; the payment then follows the ordinary path (callback, credit, webhooks).
 */
export class SimulateCustomerPayment {
  constructor(
    private readonly dependencies: { peers: Pick<Peers, 'payments'>; testBank: TestBank | undefined },
  ) {}

  async execute(scope: Scope, paymentId: string): Promise<void> {
    const { peers, testBank } = this.dependencies;
    if (scope.livemode || testBank === undefined) {
      throw new AppError('parameter_invalid', 'Only test payments can be paid by the simulator.', {
        param: 'livemode',
      });
    }
    const payment = await peers.payments.get(scope, paymentId);
    const waiting = requestWaitingAtTheBank(payment.attempts);
    if (waiting === undefined) {
      throw new AppError('parameter_invalid', "This payment has no request waiting at the customer's bank.", {
        param: 'payment',
      });
    }
    await testBank.pay(waiting.tx_id);
  }
}
