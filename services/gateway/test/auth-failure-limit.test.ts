import { ManualClock } from '@sika/platform';
import { randomSuffix, unreachableRedis } from '@sika/testing';
import type { Redis } from 'ioredis';

import { errorOf, KEYS, startTestGateway, type TestGateway } from './support/gateway';

const WINDOW_MS = 60_000;
const LIMIT = 3;
const UNKNOWN_KEY = 'sk_test_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ';
// Ten seconds into a one-minute window (windows start at the epoch): 50 s until it ends, whatever the
// test's real duration, since only this clock moves.
const clock = new ManualClock(new Date('2026-03-01T12:00:10.000Z'));

/** A fresh client address for each test: the windows are shared by the whole file and the clock is fixed. */
const anAddress = (): string => `203.0.113.${randomSuffix()}`;

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({
    authFailureLimit: { limit: LIMIT, windowMs: WINDOW_MS },
    clock,
    // One proxy in front, as behind the ingress: the client's address is the last X-Forwarded-For entry.
    trustProxyHops: 1,
  });
});
afterAll(() => gateway.close());

beforeEach(() => {
  clock.advance(WINDOW_MS);
});

function from(address: string, key: string | null = KEYS.aTest) {
  return gateway.request('/v1/balance', { key, headers: { 'x-forwarded-for': address } });
}

async function failFrom(address: string, times: number): Promise<void> {
  for (let index = 0; index < times; index += 1) expect((await from(address, UNKNOWN_KEY)).status).toBe(401);
}

describe('failed authentications per client address', () => {
  it('answers a failed authentication past the limit 429 rate_limited with Retry-After, never a valid key', async () => {
    const address = anAddress();
    await failFrom(address, LIMIT);

    const withUnknownKey = await from(address, UNKNOWN_KEY);
    const withoutKey = await from(address, null);
    for (const response of [withUnknownKey, withoutKey]) {
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('50');
      expect(response.headers.get('ratelimit-limit')).toBeNull();
    }
    // A merchant's servers still sending a replaced key do not lock out the valid key behind the same address.
    expect((await from(address, KEYS.aTest)).status).toBe(200);
    expect(await errorOf(withUnknownKey)).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limited',
      message: 'Too many failed authentications from this address. Retry after 50 s.',
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it('counts every 401: a missing key and a malformed one as well as an unknown one', async () => {
    const address = anAddress();
    expect((await from(address, null)).status).toBe(401);
    expect(
      (await gateway.request('/v1/balance', { key: 'not-a-key', headers: { 'x-forwarded-for': address } }))
        .status,
    ).toBe(401);
    expect((await from(address, UNKNOWN_KEY)).status).toBe(401);

    expect((await from(address, null)).status).toBe(429);
  });

  it('never counts successful requests', async () => {
    const address = anAddress();
    for (let index = 0; index < 3 * LIMIT; index += 1) expect((await from(address)).status).toBe(200);
    await failFrom(address, LIMIT - 1);

    expect((await from(address)).status).toBe(200);
    expect((await from(address, UNKNOWN_KEY)).status).toBe(401);
    expect((await from(address, UNKNOWN_KEY)).status).toBe(429);
  });

  it('keeps each address apart', async () => {
    const [limited, other] = [anAddress(), anAddress()];
    await failFrom(limited, LIMIT);

    expect((await from(limited, UNKNOWN_KEY)).status).toBe(429);
    expect((await from(other)).status).toBe(200);
    expect((await from(other, UNKNOWN_KEY)).status).toBe(401);
  });

  it('reads the address from X-Forwarded-For only as far as the trusted hops go', async () => {
    const address = anAddress();
    await failFrom(address, LIMIT);

    // Whatever the client wrote before the entry the trusted proxy appended does not change its address.
    const spoofed = await from(`${anAddress()}, ${address}`, UNKNOWN_KEY);

    expect(spoofed.status).toBe(429);
  });

  it('lets the address in again when the window ends', async () => {
    const address = anAddress();
    await failFrom(address, LIMIT);
    expect((await from(address, UNKNOWN_KEY)).status).toBe(429);

    clock.advance(WINDOW_MS);

    expect((await from(address, UNKNOWN_KEY)).status).toBe(401);
  });

  it('keeps a digest of the address in Redis, never the address, expiring after two windows', async () => {
    const address = anAddress();
    await failFrom(address, 1);

    const keys = await gateway.redis!.keyLifetimes('gateway:authfail:*');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.map(({ key }) => key).join(' ')).not.toContain(address);
    // Set just now to two windows: more than one is left (a key without expiry answers -1).
    for (const { ttlMs } of keys) {
      expect(ttlMs).toBeGreaterThan(WINDOW_MS);
      expect(ttlMs).toBeLessThanOrEqual(2 * WINDOW_MS);
    }
  });
});

describe('without trusted proxies', () => {
  let direct: TestGateway;

  beforeAll(async () => {
    direct = await startTestGateway({
      authFailureLimit: { limit: LIMIT, windowMs: WINDOW_MS },
      clock,
    });
  });
  afterAll(() => direct.close());

  it('limits the socket address, whatever X-Forwarded-For claims', async () => {
    for (let index = 0; index < LIMIT; index += 1) {
      const response = await direct.request('/v1/balance', {
        key: UNKNOWN_KEY,
        headers: { 'x-forwarded-for': anAddress() },
      });
      expect(response.status).toBe(401);
    }

    const response = await direct.request('/v1/balance', {
      key: UNKNOWN_KEY,
      headers: { 'x-forwarded-for': anAddress() },
    });

    expect(response.status).toBe(429);
  });
});

describe('failed authentications while Redis is unavailable', () => {
  let unreachable: Redis;
  let failOpen: TestGateway;

  beforeAll(async () => {
    unreachable = unreachableRedis();
    failOpen = await startTestGateway({
      redis: unreachable,
      authFailureLimit: { limit: 1, windowMs: WINDOW_MS },
    });
  });
  afterAll(async () => {
    await failOpen.close();
    unreachable.disconnect();
  });

  it('are not limited, and the outage is logged once as a warning', async () => {
    for (let index = 0; index < 3; index += 1) {
      expect((await failOpen.request('/v1/balance', { key: UNKNOWN_KEY })).status).toBe(401);
    }
    expect((await failOpen.request('/v1/balance')).status).toBe(200);

    const warnings = failOpen.logs.filter((line) =>
      line.includes('authentication failure limiter unavailable: failed authentications are not limited'),
    );
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn' });
  });
});
