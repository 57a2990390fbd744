export interface RunMainOptions {
  /** Where the failure is written; process.stderr outside tests. */
  stderr?: { write(text: string): unknown };
  exit?: (code: number) => void;
}

function describeFailure(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Runs a process's `main` (the composition root) and turns a failure to start — a port in use, a broker
 * that refuses the connection — into `<service> failed to start: <stack>` on stderr and exit code 1. Not
 * through the logger: it may not exist yet, or be what failed, and stderr is the one channel that always
 * works. Never rejects, so the caller need not handle the promise.
 */
export async function runMain(
  service: string,
  main: () => Promise<void>,
  { stderr = process.stderr, exit = (code) => process.exit(code) }: RunMainOptions = {},
): Promise<void> {
  try {
    await main();
  } catch (error) {
    stderr.write(`${service} failed to start: ${describeFailure(error)}\n`);
    exit(1);
  }
}
