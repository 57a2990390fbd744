import { WorkerRound, type WorkerStep } from './worker-round';

/** A step that takes the given counts in turn and records when it ran. */
function stepTaking(name: string, counts: number[], runs: string[]): WorkerStep {
  return {
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
      { step: stepTaking('payers', [3], runs), batchSize: 50 },
      { step: stepTaking('transfers', [0], runs), batchSize: 50 },
      { step: stepTaking('callbacks', [19], runs), batchSize: 20 },
    ]);

    expect(await round.execute()).toBe(false);
    expect(runs).toEqual(['payers', 'transfers', 'callbacks']);
  });

  it('goes again at once when any step filled its batch, the later steps still run', async () => {
    const runs: string[] = [];
    const round = new WorkerRound([
      { step: stepTaking('payers', [50, 7], runs), batchSize: 50 },
      { step: stepTaking('callbacks', [0, 20], runs), batchSize: 20 },
    ]);

    expect(await round.execute()).toBe(true);
    expect(await round.execute()).toBe(true);
    expect(runs).toEqual(['payers', 'callbacks', 'payers', 'callbacks']);
  });
});
