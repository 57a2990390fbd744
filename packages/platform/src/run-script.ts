/**
 * Runs an operator's script, one that runs where its service runs (`kubectl exec … node dist/<script>.js`):
 * what `work` returns is printed on stdout as one JSON line, for scripts; a failure is its message on stderr
 * and exit code 1. `close` runs in every case (the pool it ends would keep the process alive).
 */
export async function runScript(work: () => Promise<unknown>, close: () => Promise<void>): Promise<void> {
  try {
    const result = await work();
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await close();
  }
}
