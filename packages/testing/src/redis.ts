import { Redis } from 'ioredis';
import { resolveRedisUrl } from './infra';
import { randomSuffix } from './random';

export interface TestRedis {
  /** Every key this client reads or writes is transparently prefixed with keyPrefix. */
  redis: Redis;
  keyPrefix: string;
  /**
   * The keys under keyPrefix that match `pattern` (full names, as Redis stores them), each with the milliseconds
   * it has left to live (-1 for a key that never expires).
   */
  keyLifetimes(pattern: string): Promise<KeyLifetime[]>;
  /** Deletes every key under keyPrefix and closes the client. */
  cleanup(): Promise<void>;
}

export interface KeyLifetime {
  key: string;
  ttlMs: number;
}

export interface CreateTestRedisOptions {
  redisUrl?: string;
  /** Names the test in the prefix, to recognise leftovers. */
  prefix?: string;
}

/**
 * A Redis client confined to its own key prefix, so parallel tests share one server (and its db 0, the
 * only one some hosted Redis offer) without seeing each other's keys.
 */
export async function createTestRedis(options: CreateTestRedisOptions = {}): Promise<TestRedis> {
  const redisUrl = options.redisUrl ?? (await resolveRedisUrl());
  // The prefix doubles as a SCAN pattern in cleanup(), so glob characters must not reach it.
  const label = options.prefix?.replace(/[^A-Za-z0-9_-]+/g, '_');
  const keyPrefix = label ? `t:${label}:${randomSuffix()}:` : `t:${randomSuffix()}:`;
  const redis = new Redis(redisUrl, { keyPrefix });
  await redis.ping();
  return {
    redis,
    keyPrefix,
    keyLifetimes: (pattern) => keyLifetimesOf(redis, `${keyPrefix}${pattern}`),
    cleanup: () => deleteKeysAndQuit(redis, keyPrefix),
  };
}

/**
 * A client of a Redis that is down: port 9 (discard) is closed on test machines, so every command fails at once,
 * as in an outage. No reconnection and no disconnect grace, so nothing is left running once it is disconnected.
 */
export function unreachableRedis(): Redis {
  const redis = new Redis('redis://127.0.0.1:9', {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: () => null,
    disconnectTimeout: 0,
  });
  redis.on('error', () => undefined);
  return redis;
}

async function keyLifetimesOf(redis: Redis, fullPattern: string): Promise<KeyLifetime[]> {
  // Full names must be read back without the prefix, or the client would prefix them again.
  const unprefixed = redis.duplicate({ keyPrefix: '' });
  try {
    const keys = await unprefixed.keys(fullPattern);
    return await Promise.all(keys.map(async (key) => ({ key, ttlMs: await unprefixed.pttl(key) })));
  } finally {
    await unprefixed.quit();
  }
}

async function deleteKeysAndQuit(redis: Redis, keyPrefix: string): Promise<void> {
  // ioredis prefixes the keys of every command but not SCAN patterns: SCAN returns full names, which a
  // prefixing client would prefix again on delete, hence a second client without prefix.
  const unprefixed = redis.duplicate({ keyPrefix: '' });
  try {
    for await (const keys of unprefixed.scanStream({ match: `${keyPrefix}*`, count: 500 })) {
      const batch = keys as string[];
      if (batch.length > 0) await unprefixed.unlink(...batch);
    }
  } finally {
    await Promise.all([unprefixed.quit(), redis.quit()]);
  }
}
