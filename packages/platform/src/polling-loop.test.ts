import { Writable } from 'node:stream';

import { ManualClock } from './clock';
import { createLogger } from './logger';
import { PollingLoop } from './polling-loop';

const quietLogger = createLogger({
  service: 'polling-loop-test',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});

/** A round the test opens and closes by hand, to act while it runs. */
function gatedRounds() {
  const started: Array<() => void> = [];
  let rounds = 0;
  const round = () =>
    new Promise<boolean>((resolve) => {
      rounds += 1;
      started.push(() => resolve(false));
    });
  return {
    round,
    get rounds() {
      return rounds;
    },
    finishCurrent: () => started.shift()?.(),
  };
}

function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const HOUR = 3_600_000;

/** A loop of counted rounds that pause an hour, on a manual clock at 2026-01-01T00:00Z, after its first round. */
async function startedOnManualClock() {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  let rounds = 0;
  const loop = new PollingLoop({
    name: 'test',
    round: async () => {
      rounds += 1;
      return false;
    },
    intervalMs: HOUR,
    clock,
    logger: quietLogger,
  });
  await loop.start();
  await settle();
  return { clock, loop, rounds: () => rounds };
}

describe('PollingLoop', () => {
  it('runs rounds back to back while they report more work, then pauses', async () => {
    let remaining = 3;
    let rounds = 0;
    const loop = new PollingLoop({
      name: 'test',
      round: async () => {
        rounds += 1;
        remaining -= 1;
        return remaining > 0;
      },
      intervalMs: HOUR,
      clock: new ManualClock(),
      logger: quietLogger,
    });
    await loop.start();
    for (let i = 0; i < 10; i += 1) await settle();

    expect(rounds).toBe(3);
    await loop.stop();
  });

  it('keeps a wake-up that arrives during a round: the next round starts without a pause', async () => {
    const gate = gatedRounds();
    const loop = new PollingLoop({
      name: 'test',
      round: gate.round,
      intervalMs: HOUR,
      clock: new ManualClock(),
      logger: quietLogger,
    });
    await loop.start();
    await settle();
    expect(gate.rounds).toBe(1);

    loop.wake();
    gate.finishCurrent();
    await settle();
    await settle();

    expect(gate.rounds).toBe(2);
    gate.finishCurrent();
    const stopped = loop.stop();
    await stopped;
  });

  it('pauses after a failed round instead of spinning', async () => {
    let rounds = 0;
    const loop = new PollingLoop({
      name: 'test',
      round: async () => {
        rounds += 1;
        throw new Error('database down');
      },
      intervalMs: 1,
      failurePauseMs: HOUR,
      clock: new ManualClock(),
      logger: quietLogger,
    });
    await loop.start();
    for (let i = 0; i < 10; i += 1) await settle();

    expect(rounds).toBe(1);
    await loop.stop();
  });

  it('wakes at a due time read from the injected clock', async () => {
    const { loop, rounds } = await startedOnManualClock();
    expect(rounds()).toBe(1);

    // By the wall clock both times are long past; by the injected clock, only the second is due.
    loop.wakeAt(new Date('2026-01-01T01:00:00Z'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(rounds()).toBe(1);

    loop.wakeAt(new Date('2026-01-01T00:00:00Z'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(rounds()).toBe(2);
    await loop.stop();
  });

  it('runs no round before the clock reaches the due time, when the timer fires early', async () => {
    const { clock, loop, rounds } = await startedOnManualClock();
    expect(rounds()).toBe(1);

    // The timer of 20 ms fires while the clock the round reads has not reached the due time yet, as a timer
    // counted from the event loop's lagging time does: no round, but one as soon as the clock gets there.
    loop.wakeAt(new Date('2026-01-01T00:00:00.020Z'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(rounds()).toBe(1);

    clock.advance(20);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(rounds()).toBe(2);
    await loop.stop();
  });

  it('stop() lets the current round finish, then waits for the work the rounds started', async () => {
    const gate = gatedRounds();
    const events: string[] = [];
    const loop = new PollingLoop({
      name: 'test',
      round: gate.round,
      drain: async () => {
        events.push('drained');
      },
      intervalMs: HOUR,
      clock: new ManualClock(),
      logger: quietLogger,
    });
    await loop.start();
    await settle();

    const stopped = loop.stop().then(() => events.push('stopped'));
    await settle();
    expect(events).toEqual([]);

    events.push('round finished');
    gate.finishCurrent();
    await stopped;

    expect(events).toEqual(['round finished', 'drained', 'stopped']);
    expect(gate.rounds).toBe(1);
  });
});
