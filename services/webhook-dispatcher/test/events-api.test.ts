import { webhooksV1 } from '@sika/contracts';
import { newId } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { TEST_EVENT_MESSAGE } from '@sika/public-api';
import { paymentEvent, payoutEvent, startDispatcher, type DispatcherHarness } from './support/dispatcher';
import { startReceiver, type Behaviour, type Receiver } from './support/receiver';
import { verifySignature } from './support/verify-signature';

const MINUTE = 60_000;
const { DELIVERY_STATUS_PENDING, DELIVERY_STATUS_DELIVERED } = webhooksV1.DeliveryStatus;

describe('events and secrets for the dashboard, over gRPC', () => {
  let dispatcher: DispatcherHarness;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    dispatcher = await startDispatcher({ timeoutMs: 400 });
  });

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await dispatcher.close();
  });

  async function receiver(behaviour?: Behaviour): Promise<Receiver> {
    const started = await startReceiver(behaviour);
    receivers.push(started);
    return started;
  }

  /** A test-mode scope whose endpoint points to a new receiver. */
  async function scopeWithReceiver(behaviour?: Behaviour) {
    const target = await receiver(behaviour);
    const scope = { merchantId: newId('mer'), livemode: false };
    const { endpoint } = await dispatcher.client.setEndpoint({ scope, url: target.url });
    return { scope, receiver: target, secret: endpoint?.secret ?? '' };
  }

  const verifiesWith = (request: Receiver['requests'][number] | undefined, secret: string) =>
    verifySignature(
      request?.headers['service-signature'] as string | undefined,
      request?.body ?? '',
      secret,
      dispatcher.clock.now(),
    );

  /** Publishes a payment event of the scope and waits until it is stored; returns its id. */
  async function storedPaymentEvent(scope: { merchantId: string; livemode: boolean }): Promise<string> {
    await dispatcher.publish(paymentEvent(scope.merchantId, 'payment.succeeded'));
    const { events } = await waitFor(
      async () => {
        const page = await dispatcher.client.listEvents({ scope, page: undefined });
        return page.events.length > 0 && page;
      },
      { description: 'the stored event' },
    );
    return events[0]?.id ?? '';
  }

  const deliveryOf = async (scope: { merchantId: string; livemode: boolean }, eventId: string) =>
    (await dispatcher.client.getEvent({ scope, eventId })).event?.delivery;

  describe('RollEndpointSecret', () => {
    it('signs every delivery after the roll with the new secret only', async () => {
      const { scope, receiver: target, secret: old } = await scopeWithReceiver();
      const { endpoint } = await dispatcher.client.rollEndpointSecret({ scope });
      const rolled = endpoint?.secret ?? '';
      expect(endpoint).toEqual({
        scope,
        url: target.url,
        secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32,}$/),
      });
      expect(rolled).not.toBe(old);
      expect((await dispatcher.client.getEndpoint({ scope })).endpoint?.secret).toBe(rolled);

      await dispatcher.publish(paymentEvent(scope.merchantId, 'payment.succeeded'));
      await waitFor(() => target.requests.length === 1, { description: 'the webhook' });
      const [request] = target.requests;
      expect(() => verifiesWith(request, rolled)).not.toThrow();
      expect(() => verifiesWith(request, old)).toThrow('signature mismatch');
    });

    it('creates the endpoint, without URL, for a scope that has none, and keeps one endpoint', async () => {
      const scope = { merchantId: newId('mer'), livemode: true };
      const first = (await dispatcher.client.rollEndpointSecret({ scope })).endpoint;
      expect(first).toEqual({ scope, secret: expect.stringMatching(/^whsec_/) });
      expect((await dispatcher.client.getEndpoint({ scope })).endpoint).toEqual(first);
      const second = (await dispatcher.client.rollEndpointSecret({ scope })).endpoint;
      expect(second?.secret).not.toBe(first?.secret);
      const rows = await dispatcher.db.query('SELECT id FROM endpoints WHERE merchant_id = $1', [
        scope.merchantId,
      ]);
      expect(rows).toHaveLength(1);
    });
  });

  describe('ListEvents and GetEvent', () => {
    it('show an event with its body as sent and every attempt, after a 500 then a 200', async () => {
      const { scope, receiver: target } = await scopeWithReceiver((index) => (index === 0 ? 500 : 200));
      const start = dispatcher.clock.now();
      const eventId = await storedPaymentEvent(scope);
      await waitFor(async () => (await deliveryOf(scope, eventId))?.attempts.length === 1, {
        description: 'attempt 1 recorded',
      });
      expect(await deliveryOf(scope, eventId)).toEqual({
        status: DELIVERY_STATUS_PENDING,
        attemptCount: 1,
        nextAttemptAt: new Date(start.getTime() + MINUTE),
        attempts: [
          {
            number: 1,
            attemptedAt: start,
            url: target.url,
            statusCode: 500,
            durationMs: expect.any(Number),
          },
        ],
      });

      dispatcher.clock.advance(MINUTE);
      await waitFor(async () => (await deliveryOf(scope, eventId))?.status === DELIVERY_STATUS_DELIVERED, {
        description: 'attempt 2',
      });
      const { events, hasMore } = await dispatcher.client.listEvents({ scope, page: undefined });
      expect(hasMore).toBe(false);
      expect(events).toEqual([
        {
          id: eventId,
          type: 'payment.succeeded',
          createdAt: new Date('2026-03-01T08:59:00.000Z'),
          payload: target.requests[1]?.body,
          delivery: {
            status: DELIVERY_STATUS_DELIVERED,
            attemptCount: 2,
            deliveredAt: dispatcher.clock.now(),
            attempts: [
              expect.objectContaining({ number: 1, statusCode: 500 }),
              {
                number: 2,
                attemptedAt: new Date(start.getTime() + MINUTE),
                url: target.url,
                statusCode: 200,
                durationMs: expect.any(Number),
              },
            ],
          },
        },
      ]);
      expect((await dispatcher.client.getEvent({ scope, eventId })).event).toEqual(events[0]);
    });

    it('pages most recent first with starting_after and has_more', async () => {
      const scope = { merchantId: newId('mer'), livemode: false };
      const occurredAt = [1, 3, 2].map((minute) => new Date(Date.UTC(2026, 2, 1, 8, minute)));
      for (const at of occurredAt) {
        await dispatcher.publish({ ...paymentEvent(scope.merchantId, 'payment.succeeded'), occurredAt: at });
      }
      await waitFor(
        async () => (await dispatcher.client.listEvents({ scope, page: undefined })).events.length === 3,
        {
          description: 'three events',
        },
      );

      const first = await dispatcher.client.listEvents({ scope, page: { limit: 2 } });
      expect(first.hasMore).toBe(true);
      const second = await dispatcher.client.listEvents({
        scope,
        page: { limit: 2, startingAfter: first.events[1]?.id },
      });
      expect(second.hasMore).toBe(false);
      expect([...first.events, ...second.events].map((event) => event.createdAt?.getUTCMinutes())).toEqual([
        3, 2, 1,
      ]);
      // Events stored without an endpoint URL have no delivery.
      expect(first.events[0]?.delivery).toBeUndefined();
    });

    it.each([
      ['a limit above 100', { limit: 101 }, 'parameter_invalid', 'limit'],
      [
        'a starting_after that is no event',
        { limit: 1, startingAfter: 'evt_unknown' },
        'resource_missing',
        'starting_after',
      ],
    ])('refuses %s', async (_case, page, code, param) => {
      const scope = { merchantId: newId('mer'), livemode: false };
      await expect(dispatcher.client.listEvents({ scope, page })).rejects.toMatchObject({ code, param });
    });

    describe('with object_id', () => {
      const scope = { merchantId: newId('mer'), livemode: false };
      const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 8, minute));
      const paymentId = newId('pay');
      const otherPaymentId = newId('pay');
      const payout = { ...payoutEvent(scope.merchantId, 'payout.paid'), occurredAt: at(6) };
      const payoutId = payout.payout?.id;
      const idsOf = (page: webhooksV1.ListEventsResponse) =>
        page.events.map(
          (event) => (JSON.parse(event.payload) as { data: { object: { id: string } } }).data.object.id,
        );
      const minutesOf = (page: webhooksV1.ListEventsResponse) =>
        page.events.map((event) => event.createdAt?.getUTCMinutes());

      beforeAll(async () => {
        // The two payments' events interleave in time, so a page of one must skip the other's.
        const changes: [string, string, number][] = [
          [paymentId, 'payment.request_sent', 1],
          [otherPaymentId, 'payment.request_sent', 2],
          [paymentId, 'payment.accepted_deferred', 3],
          [otherPaymentId, 'payment.declined', 4],
          [paymentId, 'payment.succeeded', 5],
        ];
        for (const [id, type, minute] of changes) {
          await dispatcher.publish({
            ...paymentEvent(scope.merchantId, type, { id }),
            occurredAt: at(minute),
          });
        }
        await dispatcher.publishPayout(payout);
        await waitFor(
          async () => (await dispatcher.client.listEvents({ scope, page: undefined })).events.length === 6,
          { description: 'six events' },
        );
      });

      it("lists only that payment's events, most recent first", async () => {
        const page = await dispatcher.client.listEvents({ scope, page: undefined, objectId: paymentId });
        expect(page.hasMore).toBe(false);
        expect(idsOf(page)).toEqual([paymentId, paymentId, paymentId]);
        expect(page.events.map((event) => event.type)).toEqual([
          'payment.succeeded',
          'payment.accepted_deferred',
          'payment.request_sent',
        ]);

        const other = await dispatcher.client.listEvents({
          scope,
          page: undefined,
          objectId: otherPaymentId,
        });
        expect(minutesOf(other)).toEqual([4, 2]);
        expect(idsOf(other)).toEqual([otherPaymentId, otherPaymentId]);
        const payout = await dispatcher.client.listEvents({ scope, page: undefined, objectId: payoutId });
        expect(payout.events.map((event) => event.type)).toEqual(['payout.paid']);
      });

      it('pages within the filter with starting_after and has_more', async () => {
        const first = await dispatcher.client.listEvents({ scope, page: { limit: 2 }, objectId: paymentId });
        expect(first.hasMore).toBe(true);
        expect(minutesOf(first)).toEqual([5, 3]);
        const second = await dispatcher.client.listEvents({
          scope,
          page: { limit: 2, startingAfter: first.events[1]?.id },
          objectId: paymentId,
        });
        expect(second.hasMore).toBe(false);
        expect(minutesOf(second)).toEqual([1]);
        expect(idsOf(second)).toEqual([paymentId]);
      });

      it('finds nothing for a record without events, or in the other mode', async () => {
        const unknown = await dispatcher.client.listEvents({
          scope,
          page: undefined,
          objectId: newId('pay'),
        });
        expect(unknown).toEqual({ events: [], hasMore: false });
        const live = { ...scope, livemode: true };
        const other = await dispatcher.client.listEvents({
          scope: live,
          page: undefined,
          objectId: paymentId,
        });
        expect(other).toEqual({ events: [], hasMore: false });
      });

      it.each([
        ['an event id', newId('evt')],
        ['a refund id, which no event is about', newId('rfd')],
        ['a truncated payment id', 'pay_123'],
        ['an empty string', ''],
      ])('refuses %s as parameter_invalid naming object_id', async (_case, objectId) => {
        await expect(
          dispatcher.client.listEvents({ scope, page: undefined, objectId }),
        ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'object_id' });
      });
    });
  });

  describe('ListEvents filters, as GET /v1/events uses them', () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    const at = (minute: number) => new Date(Date.UTC(2026, 2, 2, 8, minute));
    const paymentId = newId('pay');
    const typesOf = (page: webhooksV1.ListEventsResponse) => page.events.map((event) => event.type);

    beforeAll(async () => {
      const changes: [string, string, number][] = [
        [paymentId, 'payment.request_sent', 1],
        [newId('pay'), 'payment.request_sent', 2],
        [paymentId, 'payment.succeeded', 3],
        [newId('pay'), 'payment.canceled', 4],
      ];
      for (const [id, type, minute] of changes) {
        await dispatcher.publish({ ...paymentEvent(scope.merchantId, type, { id }), occurredAt: at(minute) });
      }
      await dispatcher.publishPayout({ ...payoutEvent(scope.merchantId, 'payout.paid'), occurredAt: at(5) });
      await waitFor(
        async () => (await dispatcher.client.listEvents({ scope, page: undefined })).events.length === 5,
        { description: 'five events' },
      );
    });

    it('keeps one type, most recent first, and pages within it', async () => {
      const sent = await dispatcher.client.listEvents({
        scope,
        page: { limit: 1 },
        type: 'payment.request_sent',
      });
      expect(sent.events.map((event) => event.createdAt)).toEqual([at(2)]);
      expect(sent.hasMore).toBe(true);
      const rest = await dispatcher.client.listEvents({
        scope,
        page: { limit: 1, startingAfter: sent.events[0]?.id },
        type: 'payment.request_sent',
      });
      expect(rest.events.map((event) => event.createdAt)).toEqual([at(1)]);
      expect(rest.hasMore).toBe(false);
      expect(
        typesOf(await dispatcher.client.listEvents({ scope, page: undefined, type: 'payout.paid' })),
      ).toEqual(['payout.paid']);
      expect(await dispatcher.client.listEvents({ scope, page: undefined, type: 'payment.failed' })).toEqual({
        events: [],
        hasMore: false,
      });
    });

    it('keeps created_from inclusive and created_to exclusive', async () => {
      const window = await dispatcher.client.listEvents({
        scope,
        page: undefined,
        createdFrom: at(2),
        createdTo: at(4),
      });
      expect(window.events.map((event) => event.createdAt)).toEqual([at(3), at(2)]);
      const from = await dispatcher.client.listEvents({ scope, page: undefined, createdFrom: at(4) });
      expect(typesOf(from)).toEqual(['payout.paid', 'payment.canceled']);
      const to = await dispatcher.client.listEvents({ scope, page: undefined, createdTo: at(2) });
      expect(to.events.map((event) => event.createdAt)).toEqual([at(1)]);
    });

    it('combines the filters with object_id', async () => {
      const page = await dispatcher.client.listEvents({
        scope,
        page: undefined,
        objectId: paymentId,
        type: 'payment.succeeded',
        createdFrom: at(3),
      });
      expect(typesOf(page)).toEqual(['payment.succeeded']);
    });

    it.each([['payment.unknown'], ['PAYMENT.SUCCEEDED'], ['']])(
      'refuses the type %p as parameter_invalid naming type',
      async (type) => {
        await expect(dispatcher.client.listEvents({ scope, page: undefined, type })).rejects.toMatchObject({
          code: 'parameter_invalid',
          param: 'type',
        });
      },
    );

    it('accepts webhook.test as a type, the events the dashboard sends', async () => {
      expect(await dispatcher.client.listEvents({ scope, page: undefined, type: 'webhook.test' })).toEqual({
        events: [],
        hasMore: false,
      });
    });
  });

  describe('retention', () => {
    it('keeps events older than 30 days readable, and refuses to delete a younger one', async () => {
      const scope = { merchantId: newId('mer'), livemode: false };
      const old = new Date(Date.now() - 31 * 24 * 3_600_000);
      await dispatcher.publish({ ...paymentEvent(scope.merchantId, 'payment.succeeded'), occurredAt: old });
      await dispatcher.publish({
        ...paymentEvent(scope.merchantId, 'payment.canceled'),
        occurredAt: new Date(),
      });
      const { events } = await waitFor(
        async () => {
          const page = await dispatcher.client.listEvents({ scope, page: undefined });
          return page.events.length === 2 && page;
        },
        { description: 'both events' },
      );
      const [recent, older] = events;
      expect(older?.createdAt).toEqual(old);
      expect((await dispatcher.client.getEvent({ scope, eventId: older?.id ?? '' })).event?.id).toBe(
        older?.id,
      );

      await expect(dispatcher.db.query('DELETE FROM events WHERE id = $1', [recent?.id])).rejects.toThrow(
        /events are kept 30 days/,
      );
      await dispatcher.db.query('DELETE FROM events WHERE id = $1', [older?.id]);
      expect((await dispatcher.client.listEvents({ scope, page: undefined })).events).toHaveLength(1);
    });
  });

  describe('ResendEvent', () => {
    it('sends the same evt_ again to the current URL with the current secret, as a further attempt', async () => {
      const { scope, receiver: first } = await scopeWithReceiver();
      const eventId = await storedPaymentEvent(scope);
      await waitFor(async () => (await deliveryOf(scope, eventId))?.status === DELIVERY_STATUS_DELIVERED, {
        description: 'the first delivery',
      });
      const moved = await receiver();
      await dispatcher.client.setEndpoint({ scope, url: moved.url });
      const secret = (await dispatcher.client.rollEndpointSecret({ scope })).endpoint?.secret ?? '';

      const { event } = await dispatcher.client.resendEvent({ scope, eventId });
      expect(event?.id).toBe(eventId);

      await waitFor(() => moved.requests.length === 1, { description: 'the resent webhook' });
      const [request] = moved.requests;
      expect(request?.body).toBe(first.requests[0]?.body);
      expect((JSON.parse(request?.body ?? '{}') as { id: string }).id).toBe(eventId);
      expect(() => verifiesWith(request, secret)).not.toThrow();
      await waitFor(async () => (await deliveryOf(scope, eventId))?.attempts.length === 2, {
        description: 'the resent attempt recorded',
      });
      expect(await deliveryOf(scope, eventId)).toMatchObject({
        status: DELIVERY_STATUS_DELIVERED,
        attemptCount: 2,
        attempts: [
          { number: 1, url: first.url, statusCode: 200 },
          { number: 2, url: moved.url, statusCode: 200 },
        ],
      });
      expect(first.requests).toHaveLength(1);
      expect((await dispatcher.client.listEvents({ scope, page: undefined })).events).toHaveLength(1);
    });

    it('gives an event stored before the endpoint had a URL its first delivery, then resends it', async () => {
      const scope = { merchantId: newId('mer'), livemode: false };
      const eventId = await storedPaymentEvent(scope);
      const target = await receiver();
      // Setting the URL sends what waited for one (going live loses nothing); a resend sends it once more.
      await dispatcher.client.setEndpoint({ scope, url: target.url });
      await waitFor(async () => (await deliveryOf(scope, eventId))?.status === DELIVERY_STATUS_DELIVERED, {
        description: 'the delivery',
      });
      expect(target.requests).toHaveLength(1);

      await dispatcher.client.resendEvent({ scope, eventId });
      await waitFor(() => target.requests.length === 2, { description: 'the resent webhook' });
      expect(target.requests[1]?.body).toBe(target.requests[0]?.body);
    });

    it('answers parameter_invalid naming url when the endpoint has no URL', async () => {
      const scope = { merchantId: newId('mer'), livemode: false };
      const eventId = await storedPaymentEvent(scope);
      await dispatcher.client.setEndpoint({ scope });
      await expect(dispatcher.client.resendEvent({ scope, eventId })).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'url',
        message: expect.stringContaining('URL'),
      });
      expect(await deliveryOf(scope, eventId)).toBeUndefined();
    });
  });

  describe('SendTestEvent', () => {
    it('delivers a signed webhook.test event, listed like the others', async () => {
      const { scope, receiver: target, secret } = await scopeWithReceiver();
      const { event } = await dispatcher.client.sendTestEvent({ scope });
      expect(event).toMatchObject({
        id: expect.stringMatching(/^evt_[A-Za-z0-9]{24}$/),
        type: 'webhook.test',
        createdAt: dispatcher.clock.now(),
      });

      await waitFor(() => target.requests.length === 1, { description: 'the test webhook' });
      const [request] = target.requests;
      expect(() => verifiesWith(request, secret)).not.toThrow();
      expect(request?.body).toBe(event?.payload);
      expect(JSON.parse(request?.body ?? '{}')).toEqual({
        id: event?.id,
        object: 'event',
        type: 'webhook.test',
        created_at: dispatcher.clock.now().toISOString(),
        livemode: false,
        data: { object: { object: 'webhook_test', message: TEST_EVENT_MESSAGE } },
      });
      await waitFor(
        async () => (await deliveryOf(scope, event?.id ?? ''))?.status === DELIVERY_STATUS_DELIVERED,
        {
          description: 'the delivery recorded',
        },
      );
      expect(
        (await dispatcher.client.listEvents({ scope, page: undefined })).events.map((listed) => listed.id),
      ).toEqual([event?.id]);
    });

    it('retries a test event like any other', async () => {
      const { scope, receiver: target } = await scopeWithReceiver((index) => (index === 0 ? 503 : 200));
      const { event } = await dispatcher.client.sendTestEvent({ scope });
      await waitFor(async () => (await deliveryOf(scope, event?.id ?? ''))?.attempts.length === 1, {
        description: 'attempt 1 recorded',
      });
      dispatcher.clock.advance(MINUTE);
      await waitFor(
        async () => (await deliveryOf(scope, event?.id ?? ''))?.status === DELIVERY_STATUS_DELIVERED,
        {
          description: 'the retry',
        },
      );
      expect(target.requests.map((request) => request.body)).toEqual([event?.payload, event?.payload]);
    });

    it('refuses a scope without endpoint URL, storing nothing', async () => {
      const scope = { merchantId: newId('mer'), livemode: false };
      await dispatcher.client.setEndpoint({ scope });
      await expect(dispatcher.client.sendTestEvent({ scope })).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'url',
      });
      expect((await dispatcher.client.listEvents({ scope, page: undefined })).events).toEqual([]);
    });
  });

  it("never shows or resends an event outside its merchant's mode", async () => {
    const { scope } = await scopeWithReceiver();
    const eventId = await storedPaymentEvent(scope);
    const others = [
      { merchantId: newId('mer'), livemode: false },
      { merchantId: scope.merchantId, livemode: true },
    ];
    for (const other of others) {
      await dispatcher.client.setEndpoint({ scope: other, url: 'http://127.0.0.1:9/unused' });
      await expect(dispatcher.client.getEvent({ scope: other, eventId })).rejects.toMatchObject({
        code: 'resource_missing',
        param: 'event_id',
      });
      await expect(dispatcher.client.resendEvent({ scope: other, eventId })).rejects.toMatchObject({
        code: 'resource_missing',
        param: 'event_id',
      });
      await expect(
        dispatcher.client.listEvents({ scope: other, page: { limit: 5, startingAfter: eventId } }),
      ).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
      expect((await dispatcher.client.listEvents({ scope: other, page: undefined })).events).toEqual([]);
    }
    await expect(dispatcher.client.getEvent({ scope, eventId: 'pay_123' })).rejects.toMatchObject({
      code: 'resource_missing',
      param: 'event_id',
    });
  });
});
