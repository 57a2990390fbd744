import { WorkerRound, type WorkerStep } from './worker-round';

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
