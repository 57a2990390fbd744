import { createTestRedis, resolveRedisUrl, type TestRedis } from '@sika/testing';
import { Redis } from 'ioredis';

describe('createTestRedis', () => {
  let first: TestRedis;
  let second: TestRedis;
  beforeEach(async () => {
    [first, second] = await Promise.all([createTestRedis({ prefix: 'rate limit' }), createTestRedis()]);
  });
  afterEach(async () => {
    await Promise.all([first.cleanup(), second.cleanup()]);
  });

  it('keeps the keys of two tests apart', async () => {
    await first.redis.set('counter', '1');
    await second.redis.set('counter', '2');
    expect(await first.redis.get('counter')).toBe('1');
    expect(await second.redis.get('counter')).toBe('2');
    expect(first.keyPrefix).toMatch(/^t:rate_limit:[a-z0-9]{10}:$/);
  });

  it('cleanup() deletes every key under the prefix and only those', async () => {
    const raw = new Redis(await resolveRedisUrl());
    try {
      const bystander = `${second.keyPrefix}keep`;
      await raw.set(bystander, 'x');
      await Promise.all(Array.from({ length: 1200 }, (_, i) => first.redis.set(`k${i}`, 'v')));

      await first.cleanup();
      first = await createTestRedis();

      expect(await raw.keys(`${second.keyPrefix}*`)).toEqual([bystander]);
      expect(await raw.exists(`${first.keyPrefix}k0`)).toBe(0);
    } finally {
      raw.disconnect();
    }
  });
});
