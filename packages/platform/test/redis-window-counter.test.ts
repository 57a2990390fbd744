import { Writable } from 'node:stream';

import { createLogger, ManualClock, OutageLog, RedisWindowCounter } from '@sika/platform';
import { createTestRedis, type TestRedis } from '@sika/testing';

const WINDOW_MS = 60_000;

let testRedis: TestRedis;
let counter: RedisWindowCounter;
let sent: string[];

const logger = createLogger({
  service: 'redis-window-counter-test',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});

beforeAll(async () => {
  testRedis = await createTestRedis({ prefix: 'window-counter' });
  const { redis } = testRedis;
  const send = redis.sendCommand.bind(redis);
  // The commands that reach Redis, by name: what one turn of the event loop costs it.
  redis.sendCommand = (command, stream) => {
    sent.push(command.name);
    return send(command, stream);
  };
  counter = new RedisWindowCounter({
    redis,
    keyPrefix: 'test',
    clock: new ManualClock(new Date('2026-11-27T12:00:30Z')),
    outage: new OutageLog(logger, { down: 'down', up: 'up' }),
  });
});

beforeEach(() => {
  sent = [];
});

afterAll(async () => {
  await testRedis.cleanup();
});

const countsOf = async (pending: Promise<{ count: number } | undefined>[]) =>
  (await Promise.all(pending)).map((counted) => counted?.count);

describe('RedisWindowCounter', () => {
  it('answers the counts of one turn in order, with one command per subject', async () => {
    const counts = await countsOf([
      counter.add('key-a', WINDOW_MS),
      counter.add('key-b', WINDOW_MS),
      counter.add('key-a', WINDOW_MS),
      counter.add('key-a', WINDOW_MS),
      counter.add('key-b', WINDOW_MS),
    ]);

    expect(counts).toEqual([1, 1, 2, 3, 2]);
    expect(sent.filter((name) => name === 'evalsha' || name === 'eval')).toHaveLength(2);
    expect(await countsOf([counter.add('key-a', WINDOW_MS)])).toEqual([4]);
  });

  it('reads the subjects of one turn with one command, without counting', async () => {
    await countsOf([counter.add('read-a', WINDOW_MS), counter.add('read-a', WINDOW_MS)]);
    sent = [];

    const counts = await countsOf([
      counter.read('read-a', WINDOW_MS),
      counter.read('read-never', WINDOW_MS),
      counter.read('read-a', WINDOW_MS),
    ]);

    expect(counts).toEqual([2, 0, 2]);
    expect(sent).toEqual(['mget']);
  });

  it('keeps a digest of the subject, expiring after two windows', async () => {
    await counter.add('expiring subject', WINDOW_MS);

    const keys = await testRedis.keyLifetimes('test:*');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.map(({ key }) => key).join(' ')).not.toContain('expiring subject');
    for (const { ttlMs } of keys) {
      expect(ttlMs).toBeGreaterThan(WINDOW_MS);
      expect(ttlMs).toBeLessThanOrEqual(2 * WINDOW_MS);
    }
  });
});
