import { ManualClock } from '@sika/platform';

import { errorOf, KEYS, SCOPES, startTestGateway, type TestGateway } from './support/gateway';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

beforeEach(() => {
  gateway.peers.merchants.calls.length = 0;
});

describe('authentication (spec §5)', () => {
  it('answers 401 api_key_missing without an Authorization header, and without RateLimit headers', async () => {
    const response = await gateway.request('/v1/balance', { key: null });
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toMatchObject({ type: 'authentication_error', code: 'api_key_missing' });
    expect(response.headers.get('ratelimit-limit')).toBeNull();
    expect(gateway.peers.merchants.calls).toHaveLength(0);
  });

  it.each([
    ['an empty bearer token', 'Bearer ', 'api_key_missing'],
    ['another scheme', `Basic ${Buffer.from(`${KEYS.aTest}:`).toString('base64')}`, 'api_key_invalid'],
    ['a token that is not a secret key', 'Bearer pk_test_123', 'api_key_invalid'],
    ['a key with a foreign character', `Bearer ${KEYS.aTest}!`, 'api_key_invalid'],
    ['two tokens', `Bearer ${KEYS.aTest} ${KEYS.bTest}`, 'api_key_invalid'],
  ])('answers 401 for %s without asking merchants', async (_case, authorization, code) => {
    const response = await gateway.request('/v1/balance', { key: null, headers: { authorization } });
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe(code);
    expect(gateway.peers.merchants.calls).toHaveLength(0);
  });

  it('answers 401 api_key_invalid for a well-formed key merchants does not know', async () => {
    const response = await gateway.request('/v1/balance', {
      key: 'sk_test_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ',
    });
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toMatchObject({
      code: 'api_key_invalid',
      message: 'Invalid API key provided.',
    });
    expect(gateway.peers.merchants.calls).toHaveLength(1);
  });

  it('accepts the scheme name in any case', async () => {
    const response = await gateway.request('/v1/balance', {
      key: null,
      headers: { authorization: `bearer ${KEYS.aTest}` },
    });
    expect(response.status).toBe(200);
  });

  it('stops accepting a revoked (renewed) key on the very next request with the key cache off', async () => {
    const key = 'sk_test_RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR';
    gateway.peers.merchants.keys.set(key, SCOPES.aTest);
    expect((await gateway.request('/v1/balance', { key })).status).toBe(200);
    gateway.peers.merchants.keys.delete(key);
    expect((await gateway.request('/v1/balance', { key })).status).toBe(401);
  });

  it('refuses a key whose record disagrees with its prefix', async () => {
    const key = 'sk_test_MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM';
    gateway.peers.merchants.keys.set(key, SCOPES.aLive);
    const response = await gateway.request('/v1/balance', { key });
    expect((await errorOf(response)).code).toBe('api_key_invalid');
  });

  it('decides the mode by the key: the live key reads the live balance', async () => {
    const response = await gateway.request('/v1/balance', { key: KEYS.aLive });
    expect(await response.json()).toMatchObject({ object: 'balance', livemode: true });
    expect(gateway.peers.ledger.calls.at(-1)?.request).toMatchObject({ scope: SCOPES.aLive });
  });

  it('serves the OpenAPI document without a key', async () => {
    const response = await gateway.request('/v1/openapi.json', { key: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ openapi: '3.1.0' });
  });

  it('authenticates before validating: a bad body with no key is a 401', async () => {
    const response = await gateway.request('/v1/payments', {
      method: 'POST',
      key: null,
      body: { amount: 'x' },
    });
    expect(response.status).toBe(401);
  });

  it('never writes a secret key to the log', async () => {
    await gateway.request('/v1/balance', { key: 'sk_test_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ' });
    await gateway.request('/v1/balance');
    expect(gateway.logs.join('')).not.toMatch(/sk_(test|live)_/);
  });
});

describe('a merchants service that cannot be reached', () => {
  it('answers 503 service_unavailable, not 401', async () => {
    await gateway.peers.close();
    const response = await gateway.request('/v1/balance');
    expect(response.status).toBe(503);
    expect(await errorOf(response)).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
  });
});

describe('the key cache (KEY_CACHE_TTL)', () => {
  const clock = new ManualClock(new Date('2026-03-01T12:00:00.000Z'));
  let cached: TestGateway;

  beforeAll(async () => {
    cached = await startTestGateway({ keyCacheTtl: '1s', clock });
  });
  afterAll(() => cached.close());

  it("reuses merchants' answer for a valid key within the TTL, and asks again once it has passed", async () => {
    const key = 'sk_test_CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC';
    cached.peers.merchants.keys.set(key, SCOPES.bTest);

    const answers = [];
    for (let request = 0; request < 3; request++)
      answers.push((await cached.request('/v1/balance', { key })).status);
    expect(answers).toEqual([200, 200, 200]);
    expect(cached.peers.merchants.calls).toHaveLength(1);

    clock.advance(1_000);
    expect((await cached.request('/v1/balance', { key })).status).toBe(200);
    expect(cached.peers.merchants.calls).toHaveLength(2);
  });

  it('refuses a renewed key once the TTL has passed: revocation takes effect within a second', async () => {
    const key = 'sk_test_DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD';
    cached.peers.merchants.keys.set(key, SCOPES.bTest);
    expect((await cached.request('/v1/balance', { key })).status).toBe(200);

    cached.peers.merchants.keys.delete(key);
    clock.advance(999);
    expect((await cached.request('/v1/balance', { key })).status).toBe(200);
    clock.advance(1);
    expect((await cached.request('/v1/balance', { key })).status).toBe(401);
  });

  it('keeps no failure: an unknown key is asked of merchants each time', async () => {
    const key = 'sk_test_EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE';
    cached.peers.merchants.calls.length = 0;

    expect((await cached.request('/v1/balance', { key })).status).toBe(401);
    expect((await cached.request('/v1/balance', { key })).status).toBe(401);
    expect(cached.peers.merchants.calls).toHaveLength(2);
  });
});
