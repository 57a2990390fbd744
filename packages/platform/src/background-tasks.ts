/**
 * Work started without being awaited (a send after a commit, a delivery in flight, a message being handled)
 * that a graceful stop must still wait for. Failures are handed to `onError`, never left unhandled.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly onError: (err: unknown) => void,
    /** Called after each task settles, e.g. to wake a loop that waits for a free slot. */
    private readonly onSettled: () => void = () => {},
  ) {}

  get size(): number {
    return this.running.size;
  }

  run(work: () => Promise<unknown>): void {
    const task: Promise<void> = Promise.resolve()
      .then(work)
      .then(
        () => undefined,
        (err: unknown) => this.onError(err),
      )
      .finally(() => {
        this.running.delete(task);
        this.onSettled();
      });
    this.running.add(task);
  }

  /** Resolves once every task, including those started while waiting, has settled. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
