import type { ChildProcess } from 'node:child_process';
import type { OtlpReceiver } from '../../packages/testing/src/otlp-receiver';

// globalSetup and globalTeardown run in the same jest parent process: the handle lives on globalThis.
const KEY = Symbol.for('sika.e2e.stack');
const OUTPUT_KEY = Symbol.for('sika.e2e.stack-output');
const RECEIVER_KEY = Symbol.for('sika.e2e.trace-receiver');
type Output = { stdout: Buffer[]; stderr: Buffer[] };
type WithStack = typeof globalThis & {
  [KEY]?: ChildProcess;
  [OUTPUT_KEY]?: Output;
  [RECEIVER_KEY]?: OtlpReceiver;
};

export function rememberStack(stack: ChildProcess): void {
  (globalThis as WithStack)[KEY] = stack;
}

/**
 * Keeps all the stack writes from its start (every service's log lines, prefixed with the service's name)
 * for the log scan at teardown. Each stream is kept whole, so a line is never cut by the other's chunks.
 */
export function recordStackOutput(stack: ChildProcess): void {
  const output: Output = { stdout: [], stderr: [] };
  (globalThis as WithStack)[OUTPUT_KEY] = output;
  stack.stdout?.on('data', (chunk: Buffer) => output.stdout.push(chunk));
  stack.stderr?.on('data', (chunk: Buffer) => output.stderr.push(chunk));
}

/** What the stack wrote so far: its stdout, then its stderr. */
export function stackOutput(): string {
  const output = (globalThis as WithStack)[OUTPUT_KEY];
  if (output === undefined) return '';
  return [output.stdout, output.stderr].map((chunks) => Buffer.concat(chunks).toString('utf8')).join('\n');
}

export function rememberTraceReceiver(receiver: OtlpReceiver): void {
  (globalThis as WithStack)[RECEIVER_KEY] = receiver;
}

/** After the stack: its services send their last spans as they stop. */
export async function closeTraceReceiver(): Promise<void> {
  await (globalThis as WithStack)[RECEIVER_KEY]?.close();
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
