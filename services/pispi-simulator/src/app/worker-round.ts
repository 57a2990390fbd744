import type { Clock } from '@sika/platform';

/** A step of the worker's round: answers how many rows it took, at most its batch size. */
export interface WorkerStep {
  readonly batchSize: number;
  execute(): Promise<number>;
}

/**
 * One round of the simulator's worker: payers, then payees' banks, then callbacks, each step once. It answers
 * whether to go again at once, which only a step that filled its batch calls for: it may have left more due. A
 * step that took less took all that was due; what falls due later wakes the loop (its wakeAt), and the
 * interval finds the rest (a row a pay or a return held locked). Going again after any work at all cost every
 * answer a second, empty round of seven statements: at 20 answers/s, over a third of the simulator's
 * statements.
 */
export class WorkerRound {
  constructor(private readonly steps: readonly WorkerStep[]) {}

  async execute(): Promise<boolean> {
    let more = false;
    for (const step of this.steps) {
      if ((await step.execute()) >= step.batchSize) more = true;
    }
    return more;
  }
}

/**
 * A step that runs only when work may be due for it: a due time it was told of (by the use case of this
 * process that scheduled the work) has come, or `sweepIntervalMs` passed since it last ran, for work it was
 * not told of (written before a restart, or by another replica). Payment rounds never have a transfer due,
 * yet the transfers step looked every round: at 100 payments/s its BEGIN, SELECT and COMMIT were a quarter of
 * the simulator's statements.
 */
export class WhenDue implements WorkerStep {
  private dueTimes: number[] = [];
  private lastRunAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly step: WorkerStep,
    private readonly clock: Clock,
    private readonly sweepIntervalMs: number,
  ) {}

  get batchSize(): number {
    return this.step.batchSize;
  }

  /** Work falls due for the step at `dueAt`; call it once that work is committed. */
  schedule(dueAt: Date): void {
    this.dueTimes.push(dueAt.getTime());
  }

  async execute(): Promise<number> {
    const now = this.clock.now().getTime();
    if (!this.dueTimes.some((time) => time <= now) && now - this.lastRunAt < this.sweepIntervalMs) return 0;
    this.lastRunAt = now;
    // Times told during the run stay: their work may have committed after the step looked.
    const told = this.dueTimes;
    this.dueTimes = [];
    let tookAllDue = false;
    try {
      const taken = await this.step.execute();
      tookAllDue = taken < this.step.batchSize;
      return taken;
    } finally {
      // A batch that was not full took all that was due at `now`; a full or failed one may have left some.
      this.dueTimes = (tookAllDue ? told.filter((time) => time > now) : told).concat(this.dueTimes);
    }
  }
}
