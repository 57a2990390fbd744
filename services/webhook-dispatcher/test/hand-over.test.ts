import { newId } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { DeliverWebhooks } from '../src/app/deliver-webhook';
import { SqlDeliveryQueue } from '../src/infra/sql-delivery-queue';
import { paymentEvent, startDispatcher, type DispatcherHarness } from './support/dispatcher';
import { startReceiver, type Receiver } from './support/receiver';

const TIMEOUT_MS = 400;
/** The lease a claim takes: the attempt timeout and a minute's margin. */
const LEASE_MS = TIMEOUT_MS + 60_000;

describe('deliveries handed over by the consumer', () => {
  let dispatcher: DispatcherHarness;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    dispatcher = await startDispatcher({ timeoutMs: TIMEOUT_MS });
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await dispatcher.close();
  });

  async function merchantWithReceiver() {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const merchantId = newId('mer');
    await dispatcher.client.setEndpoint({ scope: { merchantId, livemode: false }, url: receiver.url });
    return { merchantId, receiver };
  }

  const deliveryOf = async (merchantId: string) =>
    (
      await dispatcher.db.query<{
        id: string;
        status: string;
        attempt_count: number;
        next_attempt_at: Date | null;
      }>(
        `SELECT d.id, d.status, d.attempt_count, d.next_attempt_at FROM deliveries d
           JOIN events e ON e.id = d.event_id WHERE e.merchant_id = $1`,
        [merchantId],
      )
    )[0];

  const attemptsOf = (deliveryId: string) =>
    dispatcher.db.query<{ number: number; status_code: number | null }>(
      'SELECT number, status_code FROM delivery_attempts WHERE delivery_id = $1 ORDER BY number',
      [deliveryId],
    );

  it('sends a stored event at once without any claim', async () => {
    // No claim finds anything: the webhook can only come from the hand-over.
    jest.spyOn(SqlDeliveryQueue.prototype, 'claimDue').mockResolvedValue([]);
    const { merchantId, receiver } = await merchantWithReceiver();
    await dispatcher.publish(paymentEvent(merchantId, 'payment.succeeded'));

    await waitFor(async () => (await deliveryOf(merchantId))?.status === 'delivered', {
      description: 'the delivery delivered',
    });
    const delivery = await deliveryOf(merchantId);
    expect(receiver.requests).toHaveLength(1);
    expect(await attemptsOf(delivery?.id ?? '')).toEqual([{ number: 1, status_code: 200 }]);
  });

  it('leaves a delivery handed over but never sent to the normal claim once its lease ends', async () => {
    // The process dies between the commit and the attempt: the hand-over is lost.
    const handOver = jest.spyOn(DeliverWebhooks.prototype, 'handOver').mockImplementation(() => {});
    const { merchantId, receiver } = await merchantWithReceiver();
    const start = dispatcher.clock.now();
    await dispatcher.publish(paymentEvent(merchantId, 'payment.succeeded'));

    await waitFor(() => handOver.mock.calls.length === 1, { description: 'the hand-over' });
    expect(await deliveryOf(merchantId)).toMatchObject({
      status: 'pending',
      attempt_count: 1,
      next_attempt_at: new Date(start.getTime() + LEASE_MS),
    });
    expect(receiver.requests).toEqual([]);

    dispatcher.clock.advance(LEASE_MS);
    await waitFor(async () => (await deliveryOf(merchantId))?.status === 'delivered', {
      description: 'the delivery claimed and delivered',
    });
    const delivery = await deliveryOf(merchantId);
    expect(receiver.requests).toHaveLength(1);
    expect(await attemptsOf(delivery?.id ?? '')).toEqual([{ number: 2, status_code: 200 }]);
  });
});
