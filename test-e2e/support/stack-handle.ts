import type { ChildProcess } from 'node:child_process';

// globalSetup and globalTeardown run in the same jest parent process: the handle lives on globalThis.
const KEY = Symbol.for('sika.e2e.stack');
type WithStack = typeof globalThis & { [KEY]?: ChildProcess };

export function rememberStack(stack: ChildProcess): void {
  (globalThis as WithStack)[KEY] = stack;
}

/** SIGTERM to the runner, which stops every service gracefully; SIGKILL if that takes too long. */
export async function stopStack(): Promise<void> {
  const stack = (globalThis as WithStack)[KEY];
  if (!stack || stack.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => stack.once('exit', () => resolve()));
  stack.kill('SIGTERM');
  const timer = setTimeout(() => stack.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}
