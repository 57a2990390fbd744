import { newId } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { startDispatcher, type DispatcherHarness } from './support/dispatcher';
import { startDnsServer, type DnsServer } from './support/dns-server';
import { startReceiver, type Receiver } from './support/receiver';

const STALLED_HOST = 'hooks.stalled.test';
const SHOP_HOST = 'hooks.shop.test';
const MANUAL_SENDS_PER_MINUTE = 6;

/**
 * One merchant's endpoint whose DNS never answers, flooded with test events, must not hold the delivery slots
 * every merchant shares (4 here), nor be flooded without limit.
 */
describe('an endpoint whose DNS never answers', () => {
  let dns: DnsServer;
  let dispatcher: DispatcherHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    dns = await startDnsServer({ addresses: { [SHOP_HOST]: '127.0.0.1' }, stalled: [STALLED_HOST] });
    receiver = await startReceiver();
    dispatcher = await startDispatcher({
      timeoutMs: 2_000,
      env: {
        WEBHOOK_DNS_SERVERS: dns.address,
        // Long enough that the other merchant's delivery must not wait for these lookups to give up.
        WEBHOOK_DNS_TIMEOUT: '60s',
        WEBHOOK_ENDPOINT_CONCURRENCY: '2',
        WEBHOOK_MANUAL_SENDS_PER_MINUTE: String(MANUAL_SENDS_PER_MINUTE),
      },
    });
  });

  afterAll(async () => {
    dns?.release();
    await dispatcher?.close();
    await receiver?.close();
    await dns?.close();
  });

  const attemptsTo = async (merchantId: string) =>
    (
      await dispatcher.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
           JOIN endpoints p ON p.id = d.endpoint_id WHERE p.merchant_id = $1`,
        [merchantId],
      )
    )[0]?.n;

  it("holds at most its share of lookups, and another merchant's delivery goes out meanwhile", async () => {
    const stalled = { merchantId: newId('mer'), livemode: false };
    await dispatcher.client.setEndpoint({ scope: stalled });
    // Written directly: registering it would resolve its host, which never answers.
    await dispatcher.db.query(
      'UPDATE endpoints SET url = $2, url_since = created_at WHERE merchant_id = $1',
      [stalled.merchantId, `http://${STALLED_HOST}/hooks`],
    );
    for (let sent = 0; sent < MANUAL_SENDS_PER_MINUTE; sent += 1) {
      await dispatcher.client.sendTestEvent({ scope: stalled });
    }
    await waitFor(() => dns.questions.filter((name) => name === STALLED_HOST).length >= 2, {
      description: 'lookups of the stalled host under way',
    });

    const shop = { merchantId: newId('mer'), livemode: false };
    await dispatcher.client.setEndpoint({
      scope: shop,
      url: `http://${SHOP_HOST}:${new URL(receiver.url).port}/hooks`,
    });
    const { event } = await dispatcher.client.sendTestEvent({ scope: shop });
    await waitFor(() => receiver.requests.some((request) => request.body.includes(event?.id ?? '?')), {
      description: "the other merchant's delivery",
    });

    // Not one of the stalled endpoint's attempts has ended yet: the delivery did not wait for them.
    expect(await attemptsTo(stalled.merchantId)).toBe('0');
    // Two lookups at once at most (each asks A and AAAA), not one per free slot.
    expect(dns.questions.filter((name) => name === STALLED_HOST).length).toBeLessThanOrEqual(4);

    // Once its DNS answers (here: the name does not exist), its deliveries are attempted, two at a time.
    dns.release();
    await waitFor(async () => (await attemptsTo(stalled.merchantId)) === String(MANUAL_SENDS_PER_MINUTE), {
      description: "the stalled endpoint's attempts, once its DNS answered",
    });
  });

  it('refuses test events and resends past the limit with rate_limited, saying when to retry', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    await dispatcher.client.setEndpoint({ scope });
    await dispatcher.db.query(
      'UPDATE endpoints SET url = $2, url_since = created_at WHERE merchant_id = $1',
      [scope.merchantId, 'http://hooks.unknown.test/hooks'],
    );
    const { event } = await dispatcher.client.sendTestEvent({ scope });
    for (let sent = 1; sent < MANUAL_SENDS_PER_MINUTE; sent += 1) {
      await dispatcher.client.resendEvent({ scope, eventId: event?.id ?? '' });
    }

    await expect(dispatcher.client.sendTestEvent({ scope })).rejects.toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/Retry after \d+ s\.$/),
    });
    await expect(dispatcher.client.resendEvent({ scope, eventId: event?.id ?? '' })).rejects.toMatchObject({
      code: 'rate_limited',
    });

    dispatcher.clock.advance(60_000);
    await expect(dispatcher.client.sendTestEvent({ scope })).resolves.toMatchObject({
      event: expect.objectContaining({ type: 'webhook.test' }),
    });
  });
});
