import { Redis } from 'ioredis';

import { closing, type Component } from './lifecycle';
import type { Logger } from './logger';

/**
 * The Redis client of a service's limits, and what closes it. No offline queue and a short command timeout:
 * while Redis is away a check fails at once and the limit is waived (every limit fails open). No
 * auto-pipelining: the counters already send the checks of an event-loop turn as one round trip, and
 * auto-pipelining would hold that round trip back until the next turn. A client given by a test is the
 * test's to close.
 */
export function limitsRedis(options: {
  url: string;
  commandTimeoutMs: number;
  logger: Logger;
  given: Redis | undefined;
}): { redis: Redis; closing: Component[] } {
  const { url, commandTimeoutMs, logger, given } = options;
  const redis =
    given ??
    new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: commandTimeoutMs });
  redis.on('error', (error: Error) => logger.debug({ err: error }, 'redis connection error'));
  return { redis, closing: given === undefined ? [closing('redis', () => redis.quit())] : [] };
}
