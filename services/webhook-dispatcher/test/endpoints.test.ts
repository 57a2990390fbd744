import { newId } from '@sika/platform';
import { startDispatcher, type DispatcherHarness } from './support/dispatcher';

describe('webhook endpoints over gRPC', () => {
  let dispatcher: DispatcherHarness;

  beforeAll(async () => {
    dispatcher = await startDispatcher({ timeoutMs: 1_000 });
  });

  afterAll(async () => {
    await dispatcher.close();
  });

  it('creates the endpoint with a whsec_ secret, and keeps the secret when only the URL changes', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    const { endpoint: created } = await dispatcher.client.setEndpoint({ scope });
    expect(created).toEqual({ scope, secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32,}$/) });
    expect(created?.url).toBeUndefined();

    const { endpoint: withUrl } = await dispatcher.client.setEndpoint({
      scope,
      url: 'https://shop.example/hooks',
    });
    expect(withUrl).toEqual({ scope, url: 'https://shop.example/hooks', secret: created?.secret });
    const { endpoint: moved } = await dispatcher.client.setEndpoint({
      scope,
      url: 'https://shop.example/v2',
    });
    expect(moved?.secret).toBe(created?.secret);
    expect((await dispatcher.client.getEndpoint({ scope })).endpoint).toEqual(moved);
  });

  it('gives each mode its own endpoint and secret', async () => {
    const merchantId = newId('mer');
    const test = await dispatcher.client.setEndpoint({
      scope: { merchantId, livemode: false },
      url: 'https://a.example/',
    });
    const live = await dispatcher.client.setEndpoint({
      scope: { merchantId, livemode: true },
      url: 'https://b.example/',
    });
    expect(live.endpoint?.secret).not.toBe(test.endpoint?.secret);
    expect(
      (await dispatcher.client.getEndpoint({ scope: { merchantId, livemode: false } })).endpoint?.url,
    ).toBe('https://a.example/');
  });

  it('ends concurrent first registrations as one endpoint with one secret', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        dispatcher.client.setEndpoint({ scope, url: `https://shop.example/${index}` }),
      ),
    );
    expect(new Set(answers.map((answer) => answer.endpoint?.secret)).size).toBe(1);
    const rows = await dispatcher.db.query('SELECT id FROM endpoints WHERE merchant_id = $1', [
      scope.merchantId,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('stores the secret encrypted', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    const { endpoint } = await dispatcher.client.setEndpoint({ scope });
    const [row] = await dispatcher.db.query<{ secret_ciphertext: string }>(
      'SELECT secret_ciphertext FROM endpoints WHERE merchant_id = $1',
      [scope.merchantId],
    );
    expect(row?.secret_ciphertext).toMatch(/^v2\.[A-Za-z0-9_-]{11}\./);
    expect(row?.secret_ciphertext).not.toContain(endpoint?.secret.slice('whsec_'.length));
  });

  it('answers resource_missing for a merchant and mode without endpoint', async () => {
    const merchantId = newId('mer');
    await dispatcher.client.setEndpoint({ scope: { merchantId, livemode: false } });
    await expect(
      dispatcher.client.getEndpoint({ scope: { merchantId, livemode: true } }),
    ).rejects.toMatchObject({
      code: 'resource_missing',
    });
  });

  it('rolls the secret, keeping the replaced one for the overlap asked, up to 7 days', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    const created = await dispatcher.client.rollEndpointSecret({ scope, expirePreviousAfterSeconds: 3_600 });
    // The first call creates the endpoint: there is no previous secret to keep.
    expect(created.previousSecretExpiresAt).toBeUndefined();

    const rolled = await dispatcher.client.rollEndpointSecret({ scope, expirePreviousAfterSeconds: 3_600 });
    expect(rolled.endpoint?.secret).not.toBe(created.endpoint?.secret);
    expect(rolled.previousSecretExpiresAt).toEqual(new Date(dispatcher.clock.now().getTime() + 3_600_000));
    const [row] = await dispatcher.db.query<{ previous_secret_expires_at: Date; previous: string }>(
      'SELECT previous_secret_expires_at, previous_secret_ciphertext AS previous FROM endpoints WHERE merchant_id = $1',
      [scope.merchantId],
    );
    expect(row?.previous_secret_expires_at).toEqual(rolled.previousSecretExpiresAt);
    expect(row?.previous).toMatch(/^v2\./);
    expect(row?.previous).not.toContain(created.endpoint?.secret.slice('whsec_'.length));

    const immediate = await dispatcher.client.rollEndpointSecret({ scope, expirePreviousAfterSeconds: 0 });
    expect(immediate.previousSecretExpiresAt).toBeUndefined();
    expect(
      await dispatcher.db.query(
        'SELECT 1 FROM endpoints WHERE merchant_id = $1 AND previous_secret_ciphertext IS NULL AND previous_secret_expires_at IS NULL',
        [scope.merchantId],
      ),
    ).toHaveLength(1);

    await expect(
      dispatcher.client.rollEndpointSecret({ scope, expirePreviousAfterSeconds: 7 * 24 * 3_600 + 1 }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'expire_previous_after_seconds' });
    expect((await dispatcher.client.getEndpoint({ scope })).endpoint?.secret).toBe(
      immediate.endpoint?.secret,
    );
  });

  it.each([
    ['a relative URL', { url: '/hooks' }, 'url'],
    ['an ftp URL', { url: 'ftp://shop.example/' }, 'url'],
    ['a malformed merchant id', { scope: { merchantId: 'shop', livemode: false } }, 'scope.merchant_id'],
  ])('refuses %s naming %s, creating nothing', async (_case, overrides, param) => {
    const scope = { merchantId: newId('mer'), livemode: false };
    await expect(dispatcher.client.setEndpoint({ scope, ...overrides })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param,
    });
    expect(
      await dispatcher.db.query('SELECT 1 FROM endpoints WHERE merchant_id = $1', [scope.merchantId]),
    ).toEqual([]);
  });
});

describe('webhook endpoint URLs, with private targets refused (as deployed)', () => {
  let dispatcher: DispatcherHarness;

  beforeAll(async () => {
    dispatcher = await startDispatcher({ timeoutMs: 1_000, allowPrivateTargets: false });
  });

  afterAll(async () => {
    await dispatcher.close();
  });

  it.each([
    [
      'the cloud metadata address',
      'http://169.254.169.254/latest/meta-data/',
      false,
      /169\.254\.169\.254 is linkLocal/,
    ],
    ['a private address', 'http://10.0.0.1/', false, /10\.0\.0\.1 is private/],
    ['a loopback address', 'http://127.0.0.1/', false, /127\.0\.0\.1 is loopback/],
    ['an IPv4-mapped loopback address', 'http://[::ffff:127.0.0.1]/', false, /is loopback/],
    ['IPv6 loopback', 'https://[::1]/', true, /::1 is loopback/],
    ['a shared (CGNAT) address', 'https://100.64.0.1/', true, /is carrierGradeNat/],
    [
      'a host name resolving to loopback',
      'http://localhost/hooks',
      false,
      /host resolves to a non-public address \(loopback\)/,
    ],
    ['a port other than 80 and 443', 'https://shop.example:8443/hooks', false, /port 80 or 443/],
    ['http in live mode', 'http://shop.example/hooks', true, /https:\/\/ in live mode/],
  ])('refuses %s naming url, creating nothing', async (_case, url, livemode, message) => {
    const scope = { merchantId: newId('mer'), livemode };
    const refusal = dispatcher.client.setEndpoint({ scope, url });
    await expect(refusal).rejects.toMatchObject({ code: 'parameter_invalid', param: 'url' });
    await expect(refusal).rejects.toThrow(message);
    expect(
      await dispatcher.db.query('SELECT 1 FROM endpoints WHERE merchant_id = $1', [scope.merchantId]),
    ).toEqual([]);
  });

  it('keeps the URL it had when a new one is refused', async () => {
    const scope = { merchantId: newId('mer'), livemode: true };
    await dispatcher.client.setEndpoint({ scope, url: 'https://shop.example/hooks' });
    await expect(dispatcher.client.setEndpoint({ scope, url: 'http://10.0.0.1/' })).rejects.toMatchObject({
      param: 'url',
    });
    expect((await dispatcher.client.getEndpoint({ scope })).endpoint?.url).toBe('https://shop.example/hooks');
  });

  it('accepts https on 443 in live mode, http on 80 in test mode, and a host that does not resolve yet', async () => {
    const merchantId = newId('mer');
    // .example names never resolve: checked again at every delivery.
    for (const [livemode, url] of [
      [true, 'https://shop.example:443/hooks'],
      [false, 'http://shop.example/hooks'],
    ] as const) {
      const { endpoint } = await dispatcher.client.setEndpoint({ scope: { merchantId, livemode }, url });
      expect(endpoint?.url).toBe(url);
    }
  });
});
