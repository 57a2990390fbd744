import { newId } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { startDispatcher, type DispatcherHarness } from './support/dispatcher';
import { startReceiver, type Receiver } from './support/receiver';

const MINUTE = 60_000;

/**
 * Deliveries with WEBHOOK_ALLOW_PRIVATE_TARGETS off, as deployed. Registration refuses these URLs, so each test
 * writes its endpoint's URL directly, as an endpoint registered before the rules (or while the flag was on)
 * would hold it, or one whose host name has since been pointed inside.
 */
describe('delivery to a URL the target rules refuse', () => {
  let dispatcher: DispatcherHarness;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    dispatcher = await startDispatcher({ timeoutMs: 400, allowPrivateTargets: false });
  });

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await dispatcher.close();
  });

  async function endpointWithUrl(url: string, livemode = false) {
    const scope = { merchantId: newId('mer'), livemode };
    await dispatcher.client.setEndpoint({ scope });
    await dispatcher.db.query(
      'UPDATE endpoints SET url = $3, url_since = created_at WHERE merchant_id = $1 AND livemode = $2',
      [scope.merchantId, livemode, url],
    );
    return scope;
  }

  /** Sends a test event to the scope's endpoint and waits for its first attempt to be recorded. */
  async function firstAttempt(scope: { merchantId: string; livemode: boolean }) {
    const { event } = await dispatcher.client.sendTestEvent({ scope });
    const eventId = event?.id ?? '';
    await waitFor(async () => (await attemptsOf(eventId)).length === 1, { description: 'the attempt' });
    const [delivery] = await dispatcher.db.query<{ status: string; next_attempt_at: Date | null }>(
      'SELECT status, next_attempt_at FROM deliveries WHERE event_id = $1',
      [eventId],
    );
    const [attempt] = await attemptsOf(eventId);
    return { attempt, delivery };
  }

  const attemptsOf = (eventId: string) =>
    dispatcher.db.query<{ number: number; status_code: number | null; error: string | null }>(
      `SELECT a.number, a.status_code, a.error FROM delivery_attempts a
         JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1 ORDER BY a.number`,
      [eventId],
    );

  it('records a failed attempt without connecting, and retries it on the schedule', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const scope = await endpointWithUrl(receiver.url);
    const start = dispatcher.clock.now();

    const { attempt, delivery } = await firstAttempt(scope);

    expect(attempt).toEqual({ number: 1, status_code: null, error: 'refused: url must use port 80 or 443' });
    expect(delivery).toEqual({ status: 'pending', next_attempt_at: new Date(start.getTime() + MINUTE) });
    expect(receiver.connections()).toBe(0);
    expect(receiver.requests).toEqual([]);
  });

  // Nothing listens on port 80 here: an attempt that connected would have failed with ECONNREFUSED instead.
  it.each([
    [
      'a literal loopback address',
      'http://127.0.0.1/hooks',
      false,
      'must not point to a non-public address (127.0.0.1 is loopback)',
    ],
    [
      'the cloud metadata address',
      'http://169.254.169.254/latest',
      false,
      'must not point to a non-public address (169.254.169.254 is linkLocal)',
    ],
    [
      'an IPv4-mapped private address',
      'https://[::ffff:a00:1]/',
      false,
      'must not point to a non-public address (::ffff:a00:1 is private)',
    ],
    [
      'a host name that resolves to loopback',
      'http://localhost/hooks',
      false,
      'host resolves to a non-public address (loopback)',
    ],
    ['http in live mode', 'http://localhost/hooks', true, 'must start with https:// in live mode'],
  ])('refuses %s before connecting, saying why', async (_case, url, livemode, reason) => {
    const scope = await endpointWithUrl(url, livemode);
    const { attempt, delivery } = await firstAttempt(scope);
    expect(attempt).toMatchObject({ status_code: null, error: `refused: url ${reason}` });
    expect(delivery?.status).toBe('pending');
  });

  it('records a host that does not resolve as a failed attempt, saying why', async () => {
    const scope = await endpointWithUrl('https://shop.example/hooks');
    const { attempt } = await firstAttempt(scope);
    expect(attempt).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN): |^DNS lookup timeout/),
    });
  });
});
