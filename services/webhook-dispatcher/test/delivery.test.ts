import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'amqplib';
import { newId } from '@sika/platform';
import { resolveAmqpUrl, waitFor } from '@sika/testing';
import { paymentEvent, payoutEvent, startDispatcher, type DispatcherHarness } from './support/dispatcher';
import { startReceiver, type Receiver } from './support/receiver';
import { signatureCount, verifySignature } from './support/verify-signature';

const MINUTE = 60_000;

interface AttemptRow {
  number: number;
  status_code: number | null;
  error: string | null;
  attempted_at: Date;
}

describe('webhook delivery', () => {
  let dispatcher: DispatcherHarness;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    dispatcher = await startDispatcher({ timeoutMs: 400 });
  });

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await dispatcher.close();
  });

  /** A merchant whose test-mode endpoint points to a new receiver; returns both and the endpoint secret. */
  async function merchantWithReceiver(behaviour?: Parameters<typeof startReceiver>[0]) {
    const receiver = await startReceiver(behaviour);
    receivers.push(receiver);
    const merchantId = newId('mer');
    const { endpoint } = await dispatcher.client.setEndpoint({
      scope: { merchantId, livemode: false },
      url: receiver.url,
    });
    return { merchantId, receiver, secret: endpoint?.secret ?? '' };
  }

  const eventsOf = (merchantId: string) =>
    dispatcher.db.query<{ id: string; payload: string }>(
      'SELECT id, payload FROM events WHERE merchant_id = $1',
      [merchantId],
    );

  const attemptsOf = (eventId: string) =>
    dispatcher.db.query<AttemptRow>(
      `SELECT a.number, a.status_code, a.error, a.attempted_at FROM delivery_attempts a
         JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1 ORDER BY a.number`,
      [eventId],
    );

  const deliveryOf = (eventId: string) =>
    dispatcher.db.query<{ status: string; attempt_count: number; next_attempt_at: Date | null }>(
      'SELECT status, attempt_count, next_attempt_at FROM deliveries WHERE event_id = $1',
      [eventId],
    );

  it('turns a published PaymentEvent into one stored event, delivered signed with the exact stored body', async () => {
    const { merchantId, receiver, secret } = await merchantWithReceiver();
    const event = paymentEvent(merchantId, 'payment.succeeded');
    await dispatcher.publish(event);

    await waitFor(() => receiver.requests.length === 1, { description: 'the webhook' });
    const [request] = receiver.requests;
    const [stored] = await eventsOf(merchantId);
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe('Sika-Webhooks/1.0');
    expect(request?.body).toBe(stored?.payload);
    expect(
      verifySignature(
        request?.headers['service-signature'] as string,
        request?.body ?? '',
        secret,
        dispatcher.clock.now(),
      ),
    ).toBe(Math.floor(dispatcher.clock.now().getTime() / 1000));

    const body = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
    expect(body).toEqual({
      id: stored?.id,
      object: 'event',
      type: 'payment.succeeded',
      created_at: '2026-03-01T08:59:00.000Z',
      livemode: false,
      data: {
        object: expect.objectContaining({
          id: event.payment?.id,
          object: 'payment',
          status: 'succeeded',
          amount: 10_000,
          fee_amount: 150,
          net_amount: 9_850,
          payer_alias_masked: '+225 00******01',
          metadata: { order_id: '42', customer: 'Awa' },
        }),
      },
    });
    expect(stored?.id).toMatch(/^evt_[A-Za-z0-9]{24}$/);
    await waitFor(async () => (await deliveryOf(stored?.id ?? ''))[0]?.status === 'delivered');
    expect(await attemptsOf(stored?.id ?? '')).toEqual([
      { number: 1, status_code: 200, error: null, attempted_at: dispatcher.clock.now() },
    ]);
  });

  it('delivers payout.paid and payout.failed to the same URL, signed the same way, the payout under data.object', async () => {
    const { merchantId, receiver, secret } = await merchantWithReceiver();
    const paid = payoutEvent(merchantId, 'payout.paid');
    const failed = payoutEvent(merchantId, 'payout.failed');
    await dispatcher.publishPayout(paid);
    await dispatcher.publishPayout(failed);

    await waitFor(() => receiver.requests.length === 2, { description: 'both payout webhooks' });
    const bodies = receiver.requests.map((request) => {
      expect(
        verifySignature(
          request.headers['service-signature'] as string,
          request.body,
          secret,
          dispatcher.clock.now(),
        ),
      ).toBe(Math.floor(dispatcher.clock.now().getTime() / 1000));
      return JSON.parse(request.body) as { type: string; data: { object: Record<string, unknown> } };
    });
    const byType = new Map(bodies.map((body) => [body.type, body.data.object]));
    expect(byType.get('payout.paid')).toMatchObject({
      id: paid.payout?.id,
      object: 'payout',
      status: 'paid',
      method: 'automatic',
      destination: { type: 'phone', alias: '+225 00******00', holder_name: 'Marchand Test Sika' },
      paid_at: '2026-03-01T08:59:00.000Z',
      failure_code: null,
    });
    expect(byType.get('payout.failed')).toMatchObject({
      id: failed.payout?.id,
      status: 'failed',
      failure_code: 'account_frozen',
      paid_at: null,
    });
  });

  it('makes no second event when the same message is delivered again', async () => {
    const { merchantId, receiver } = await merchantWithReceiver();
    const first = paymentEvent(merchantId, 'payment.request_sent');
    const messageId = await dispatcher.publish(first);
    await dispatcher.publish(first, messageId);
    // Consumed one at a time: once this one is stored, the redelivered copy has been handled too.
    const sentinel = paymentEvent(merchantId, 'payment.canceled');
    await dispatcher.publish(sentinel);

    await waitFor(async () => (await eventsOf(merchantId)).length === 2, {
      description: 'the sentinel event',
    });
    await waitFor(() => receiver.requests.length === 2, { description: 'two webhooks' });
    const types = receiver.requests
      .map((request) => (JSON.parse(request.body) as { type: string }).type)
      .sort();
    expect(types).toEqual(['payment.canceled', 'payment.request_sent']);
    // The event is the message's record: the consumer writes no inbox row.
    const stored = await dispatcher.db.query('SELECT id FROM events WHERE source_message_id = $1', [
      messageId,
    ]);
    expect(stored).toHaveLength(1);
    expect(await dispatcher.db.query('SELECT message_id FROM inbox')).toEqual([]);
  });

  it('gives a receiver that fails twice the event on the third attempt, with the same evt_ id', async () => {
    const { merchantId, receiver, secret } = await merchantWithReceiver((index) => (index < 2 ? 500 : 200));
    const start = dispatcher.clock.now();
    await dispatcher.publish(paymentEvent(merchantId, 'payment.succeeded'));

    await waitFor(() => receiver.requests.length === 1, { description: 'attempt 1' });
    const [{ id: eventId } = { id: '' }] = await eventsOf(merchantId);
    await waitFor(async () => (await attemptsOf(eventId)).length === 1, {
      description: 'attempt 1 recorded',
    });
    expect(await deliveryOf(eventId)).toEqual([
      { status: 'pending', attempt_count: 1, next_attempt_at: new Date(start.getTime() + MINUTE) },
    ]);
    // Nothing more until the clock reaches the retry time.
    await sleep(200);
    expect(receiver.requests).toHaveLength(1);

    dispatcher.clock.advance(MINUTE);
    await waitFor(async () => (await attemptsOf(eventId)).length === 2, {
      description: 'attempt 2 recorded',
    });
    expect((await deliveryOf(eventId))[0]?.next_attempt_at).toEqual(new Date(start.getTime() + 6 * MINUTE));

    dispatcher.clock.advance(5 * MINUTE);
    await waitFor(async () => (await deliveryOf(eventId))[0]?.status === 'delivered', {
      description: 'attempt 3',
    });

    expect(receiver.requests).toHaveLength(3);
    const signedAt = receiver.requests.map((request, index) => {
      expect(request.body).toBe(receiver.requests[0]?.body);
      expect((JSON.parse(request.body) as { id: string }).id).toBe(eventId);
      const attemptTime = new Date(start.getTime() + [0, 1, 6][index]! * MINUTE);
      return verifySignature(
        request.headers['service-signature'] as string,
        request.body,
        secret,
        attemptTime,
      );
    });
    // Signed again at each attempt, with the time of that attempt.
    expect(signedAt).toEqual([0, 60, 360].map((seconds) => start.getTime() / 1000 + seconds));
    expect((await attemptsOf(eventId)).map((attempt) => [attempt.number, attempt.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(await eventsOf(merchantId)).toHaveLength(1);
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const { merchantId, receiver } = await merchantWithReceiver(() => 'hang');
    const start = dispatcher.clock.now();
    await dispatcher.publish(paymentEvent(merchantId, 'payment.succeeded'));

    await waitFor(() => receiver.requests.length === 1, { description: 'the attempt' });
    const [{ id: eventId } = { id: '' }] = await eventsOf(merchantId);
    await waitFor(async () => (await attemptsOf(eventId)).length === 1, {
      description: 'the attempt recorded',
    });
    const [attempt] = await attemptsOf(eventId);
    expect(attempt).toMatchObject({ number: 1, status_code: null, error: 'timeout after 400 ms' });
    expect(await deliveryOf(eventId)).toEqual([
      { status: 'pending', attempt_count: 1, next_attempt_at: new Date(start.getTime() + MINUTE) },
    ]);
  });

  it('records a refused connection as a failed attempt, with its reason', async () => {
    const { merchantId, receiver } = await merchantWithReceiver();
    await receiver.close();
    await dispatcher.publish(paymentEvent(merchantId, 'payment.succeeded'));

    await waitFor(async () => (await eventsOf(merchantId)).length === 1, { description: 'the event' });
    const [{ id: eventId } = { id: '' }] = await eventsOf(merchantId);
    await waitFor(async () => (await attemptsOf(eventId)).length === 1, {
      description: 'the attempt recorded',
    });
    expect((await attemptsOf(eventId))[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^ECONNREFUSED/),
    });
    expect((await deliveryOf(eventId))[0]?.status).toBe('pending');
  });

  it('stores the events of a merchant without an endpoint URL without delivering them', async () => {
    const withoutUrl = newId('mer');
    await dispatcher.client.setEndpoint({ scope: { merchantId: withoutUrl, livemode: false } });
    const withoutEndpoint = newId('mer');
    await dispatcher.publish(paymentEvent(withoutUrl, 'payment.request_sent'));
    await dispatcher.publish(paymentEvent(withoutEndpoint, 'payment.request_sent'));

    await waitFor(async () => (await eventsOf(withoutEndpoint)).length === 1, { description: 'the events' });
    expect(await eventsOf(withoutUrl)).toHaveLength(1);
    const deliveries = await dispatcher.db.query(
      'SELECT d.id FROM deliveries d JOIN events e ON e.id = d.event_id WHERE e.merchant_id = ANY($1)',
      [[withoutUrl, withoutEndpoint]],
    );
    expect(deliveries).toEqual([]);
  });

  it('sends live events, those stored before going live included, to the test URL with the live secret', async () => {
    const { merchantId, receiver } = await merchantWithReceiver();
    const live = { merchantId, livemode: true };
    const waiting = paymentEvent(merchantId, 'payment.succeeded', { livemode: true });
    await dispatcher.publish(waiting);
    await waitFor(async () => (await eventsOf(merchantId)).length === 1, { description: 'the live event' });

    // Going live (spec §1): the merchant reads the live secret in the dashboard, which creates the endpoint.
    const { endpoint } = await dispatcher.client.rollEndpointSecret({ scope: live });
    expect(endpoint).toMatchObject({ scope: live, url: receiver.url });
    await dispatcher.publish(paymentEvent(merchantId, 'payment.succeeded', { livemode: true }));

    await waitFor(() => receiver.requests.length === 2, { description: 'both live events' });
    const objects = receiver.requests.map((request) => {
      const header = request.headers['service-signature'] as string;
      expect(
        verifySignature(header, request.body, endpoint?.secret ?? '', dispatcher.clock.now()),
      ).toBeDefined();
      return (JSON.parse(request.body) as { livemode: boolean; data: { object: { id: string } } }).data
        .object;
    });
    expect(objects.map((object) => object.id)).toContain(waiting.payment?.id);
  });

  /** Sends a test event to the merchant's test endpoint; resolves with the request the receiver got for it. */
  async function deliverTestEvent(merchantId: string, receiver: Receiver) {
    const count = receiver.requests.length;
    await dispatcher.client.sendTestEvent({ scope: { merchantId, livemode: false } });
    await waitFor(() => receiver.requests.length === count + 1, { description: 'the test event' });
    const request = receiver.requests[count]!;
    return { header: request.headers['service-signature'] as string, body: request.body };
  }

  it('signs with the new and the previous secret while a roll overlaps, with the new one alone after', async () => {
    const { merchantId, receiver, secret: oldSecret } = await merchantWithReceiver();
    const { endpoint } = await dispatcher.client.rollEndpointSecret({
      scope: { merchantId, livemode: false },
      expirePreviousAfterSeconds: 3_600,
    });
    const newSecret = endpoint?.secret ?? '';
    const rolledAt = dispatcher.clock.now();

    const during = await deliverTestEvent(merchantId, receiver);
    expect(signatureCount(during.header)).toBe(2);
    for (const secret of [newSecret, oldSecret]) {
      expect(verifySignature(during.header, during.body, secret, rolledAt)).toBe(rolledAt.getTime() / 1000);
    }
    // The new secret's entry first: a receiver that reads only the first `v1` already has the new secret.
    const [timestamp, first] = during.header.split(',');
    expect(verifySignature(`${timestamp},${first}`, during.body, newSecret, rolledAt)).toBeDefined();

    // One second before the end of the overlap, still both.
    dispatcher.clock.advance(3_600_000 - 1_000);
    expect(signatureCount((await deliverTestEvent(merchantId, receiver)).header)).toBe(2);

    const expired = dispatcher.clock.advance(1_000);
    const after = await deliverTestEvent(merchantId, receiver);
    expect(signatureCount(after.header)).toBe(1);
    expect(verifySignature(after.header, after.body, newSecret, expired)).toBe(expired.getTime() / 1000);
    expect(() => verifySignature(after.header, after.body, oldSecret, expired)).toThrow('signature mismatch');
  });

  it('signs with the new secret alone after a roll without overlap (0 or none)', async () => {
    const { merchantId, receiver, secret: firstSecret } = await merchantWithReceiver();
    const scope = { merchantId, livemode: false };
    const { endpoint: second } = await dispatcher.client.rollEndpointSecret({
      scope,
      expirePreviousAfterSeconds: 3_600,
    });
    // A roll without overlap also ends the overlap of the one before.
    const { endpoint: third } = await dispatcher.client.rollEndpointSecret({
      scope,
      expirePreviousAfterSeconds: 0,
    });

    const { header, body } = await deliverTestEvent(merchantId, receiver);
    expect(signatureCount(header)).toBe(1);
    const now = dispatcher.clock.now();
    expect(verifySignature(header, body, third?.secret ?? '', now)).toBe(Math.floor(now.getTime() / 1000));
    for (const secret of [firstSecret, second?.secret ?? '']) {
      expect(() => verifySignature(header, body, secret, now)).toThrow('signature mismatch');
    }
  });

  it('sends a message that is not a public payment event to the dead-letter queue', async () => {
    const merchantId = newId('mer');
    await dispatcher.publish(paymentEvent(merchantId, 'payment.created'));
    const { channel, close } = await openChannel();
    try {
      await waitFor(async () => (await channel.checkQueue(`${dispatcher.queue}.dlq`)).messageCount === 1, {
        description: 'the dead letter',
      });
    } finally {
      await close();
    }
    expect(await eventsOf(merchantId)).toEqual([]);
  });
});

async function openChannel() {
  const connection = await connect(await resolveAmqpUrl());
  const channel = await connection.createChannel();
  return { channel, close: () => connection.close() };
}
