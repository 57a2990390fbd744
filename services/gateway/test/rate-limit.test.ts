import { ManualClock } from '@sika/platform';
import { unreachableRedis } from '@sika/testing';
import type { Redis } from 'ioredis';

import { keyDigest } from '../src/domain/api-key';
import { errorOf, KEYS, startTestGateway, type TestGateway } from './support/gateway';

const WINDOW_MS = 1_000;
// A window boundary away from "now", so the requests of one test share a window whatever their timing.
const clock = new ManualClock(new Date('2026-03-01T12:00:00.250Z'));

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({
    rateLimits: { test: { limit: 3, windowMs: WINDOW_MS }, live: { limit: 5, windowMs: WINDOW_MS } },
    clock,
  });
});
afterAll(() => gateway.close());

beforeEach(() => {
  clock.advance(WINDOW_MS);
});

function rateLimitHeaders(response: Response) {
  return {
    limit: response.headers.get('ratelimit-limit'),
    remaining: response.headers.get('ratelimit-remaining'),
    reset: response.headers.get('ratelimit-reset'),
  };
}

describe('rate limit per API key (Redis, fixed windows)', () => {
  it('counts down in RateLimit headers, then answers 429 rate_limited with Retry-After', async () => {
    const answers = [];
    for (let index = 0; index < 4; index += 1) answers.push(await gateway.request('/v1/balance'));

    expect(answers.slice(0, 3).map((response) => response.status)).toEqual([200, 200, 200]);
    expect(answers.slice(0, 3).map(rateLimitHeaders)).toEqual([
      { limit: '3', remaining: '2', reset: '1' },
      { limit: '3', remaining: '1', reset: '1' },
      { limit: '3', remaining: '0', reset: '1' },
    ]);
    const limited = answers[3]!;
    expect(limited.status).toBe(429);
    expect(rateLimitHeaders(limited)).toEqual({ limit: '3', remaining: '0', reset: '1' });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await errorOf(limited)).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
  });

  it('limits nothing downstream once limited: the 429 is answered before the route', async () => {
    for (let index = 0; index < 3; index += 1) await gateway.request('/v1/balance');
    const before = gateway.peers.ledger.calls.length;
    expect((await gateway.request('/v1/balance')).status).toBe(429);
    expect(gateway.peers.ledger.calls).toHaveLength(before);
  });

  it('starts again in the next window', async () => {
    for (let index = 0; index < 4; index += 1) await gateway.request('/v1/balance');
    clock.advance(WINDOW_MS);
    const response = await gateway.request('/v1/balance');
    expect(response.status).toBe(200);
    expect(rateLimitHeaders(response).remaining).toBe('2');
  });

  it('counts each key on its own, with the limit of its mode', async () => {
    for (let index = 0; index < 4; index += 1) await gateway.request('/v1/balance');
    expect((await gateway.request('/v1/balance', { key: KEYS.bTest })).status).toBe(200);
    const live = await gateway.request('/v1/balance', { key: KEYS.aLive });
    expect(rateLimitHeaders(live)).toMatchObject({ limit: '5', remaining: '4' });
  });

  it('puts the RateLimit headers on authenticated errors too', async () => {
    const response = await gateway.request('/v1/payments?limit=0');
    expect(response.status).toBe(400);
    expect(rateLimitHeaders(response).limit).toBe('3');
  });

  it('keeps only a hash of the key in Redis', async () => {
    await gateway.request('/v1/balance');
    const keys = (await gateway.redis!.keyLifetimes('*')).map(({ key }) => key);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).toMatch(/gateway:ratelimit:[0-9a-f]{32}:\d+$/);
    expect(keys.join(' ')).not.toContain(KEYS.aTest);
    expect(keys.join(' ')).not.toContain(keyDigest(KEYS.aTest));
  });
});

describe('when Redis is unavailable', () => {
  let unreachable: Redis;
  let failOpen: TestGateway;

  beforeAll(async () => {
    unreachable = unreachableRedis();
    failOpen = await startTestGateway({ redis: unreachable });
  });
  afterAll(async () => {
    await failOpen.close();
    unreachable.disconnect();
  });

  it('serves requests without limit and without RateLimit headers, and logs the outage once', async () => {
    const answers = [await failOpen.request('/v1/balance'), await failOpen.request('/v1/balance')];
    expect(answers.map((response) => response.status)).toEqual([200, 200]);
    expect(answers[0]!.headers.get('ratelimit-limit')).toBeNull();
    const warnings = failOpen.logs.filter((line) => line.includes('rate limiter unavailable'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn' });
  });
});
