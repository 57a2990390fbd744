import { ManualClock } from '@sika/platform';

import { WhenDue, WorkerRound, type WorkerStep } from './worker-round';

/** A step of `batchSize` that takes the given counts in turn and records when it ran. */
function stepTaking(name: string, batchSize: number, counts: number[], runs: string[]): WorkerStep {
  return {
    batchSize,
    execute: async () => {
      runs.push(name);
      return counts.shift() ?? 0;
    },
  };
}

describe('WorkerRound', () => {
  it('runs every step once, in order, and pauses after batches that were not full', async () => {
    const runs: string[] = [];
    const round = new WorkerRound([
      stepTaking('payers', 50, [3], runs),
      stepTaking('transfers', 50, [0], runs),
      stepTaking('callbacks', 20, [19], runs),
    ]);

    expect(await round.execute()).toBe(false);
    expect(runs).toEqual(['payers', 'transfers', 'callbacks']);
  });

  it('goes again at once when any step filled its batch, the later steps still run', async () => {
    const runs: string[] = [];
    const round = new WorkerRound([
      stepTaking('payers', 50, [50, 7], runs),
      stepTaking('callbacks', 20, [0, 20], runs),
    ]);

    expect(await round.execute()).toBe(true);
    expect(await round.execute()).toBe(true);
    expect(runs).toEqual(['payers', 'callbacks', 'payers', 'callbacks']);
  });
});

describe('WhenDue', () => {
  const SWEEP_MS = 1_000;
  const start = new Date('2026-11-28T10:00:00Z');
  const at = (ms: number) => new Date(start.getTime() + ms);

  /** A gated step of batch 50 taking `counts` in turn; runAt(ms) executes it then and answers how often it ran. */
  function gated(counts: number[] = []) {
    const clock = new ManualClock(start);
    const runs: string[] = [];
    const step = new WhenDue(stepTaking('transfers', 50, counts, runs), clock, SWEEP_MS);
    const runAt = async (ms: number) => {
      clock.set(at(ms));
      await step.execute();
      return runs.length;
    };
    return { clock, step, runAt };
  }

  it('looks once, then only when a due time it was told of has come or a sweep interval has passed', async () => {
    const { step, runAt } = gated();
    expect(await runAt(0)).toBe(1);

    step.schedule(at(300));
    expect(await runAt(200)).toBe(1);
    expect(await runAt(300)).toBe(2);
    expect(await runAt(400)).toBe(2);
    expect(await runAt(1_300)).toBe(3);
  });

  it('answers what the step took, and 0 when it did not run', async () => {
    const { clock, step } = gated([4]);
    step.schedule(at(0));
    expect(await step.execute()).toBe(4);
    clock.set(at(10));
    expect(await step.execute()).toBe(0);
  });

  it('keeps a due time told while the step ran: its work may have committed after the step looked', async () => {
    const clock = new ManualClock(start);
    let runs = 0;
    const step: WhenDue = new WhenDue(
      {
        batchSize: 50,
        execute: async () => {
          runs += 1;
          if (runs === 1) step.schedule(at(0));
          return 0;
        },
      },
      clock,
      SWEEP_MS,
    );
    await step.execute();
    clock.set(at(10));
    await step.execute();
    expect(runs).toBe(2);
  });

  it('keeps due times after a full batch or a failure, which may have left work due', async () => {
    const { clock, step, runAt } = gated([50, 3]);
    step.schedule(at(0));
    expect(await runAt(0)).toBe(1);
    expect(await runAt(10)).toBe(2);
    expect(await runAt(20)).toBe(2);

    let attempts = 0;
    const failing = new WhenDue(
      {
        batchSize: 50,
        execute: () => {
          attempts += 1;
          return Promise.reject(new Error('database down'));
        },
      },
      clock,
      SWEEP_MS,
    );
    failing.schedule(at(20));
    await expect(failing.execute()).rejects.toThrow('database down');
    clock.set(at(30));
    await expect(failing.execute()).rejects.toThrow('database down');
    expect(attempts).toBe(2);
  });
});
