import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnProcessOptions {
  /** Prefixes every captured line, e.g. `[relay-1] ...`. */
  name: string;
  command: string;
  args?: readonly string[];
  /** Merged over process.env; undefined removes a variable. */
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  /** Ready once an output line (stdout or stderr) satisfies this. */
  readyWhen?: (line: string) => boolean;
  /** Ready once GET on this URL answers 2xx (checked after readyWhen when both are given). */
  readyUrl?: string;
  /** Default 30 s. */
  readyTimeoutMs?: number;
  /** Sees every line as captured, with its prefix: pass `(l) => process.stderr.write(l + '\n')` to watch. */
  onLine?: (prefixedLine: string) => void;
}

export interface SpawnedProcess {
  name: string;
  pid: number;
  /** Captured output so far, one prefixed line per output line. */
  output(): string;
  /** Resolves with the first line (already seen or future) that satisfies the predicate. */
  waitForLine(predicate: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Sends a signal (default SIGTERM) to the process. */
  kill(signal?: NodeJS.Signals): void;
  /** Sends `signal` (default SIGTERM), waits for exit, sends SIGKILL after timeoutMs (default 10 s). */
  stop(options?: { signal?: NodeJS.Signals; timeoutMs?: number }): Promise<ExitStatus>;
  /** Settles when the process has exited and its output is fully captured. */
  exited: Promise<ExitStatus>;
}

const MAX_KEPT_LINES = 10_000;
const OUTPUT_TAIL_LINES = 200;
const READY_POLL_MS = 50;

/** Processes still running: killed when the test process exits, so no server outlives its test file. */
const liveProcesses = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of liveProcesses) child.kill('SIGKILL');
  });
}

/**
 * Runs a real process for a test (a service, a relay, a worker), captures its output with a name prefix, and
 * resolves once it is ready. If it exits or times out before that, it is killed and the error quotes its
 * output, which is usually the only clue to why it did not start.
 *
 * Signals reach the spawned process only, so run programs directly (`node --import tsx main.ts`), not
 * through npx or a shell, for a SIGTERM or SIGKILL to hit the program under test. The child stays in the
 * test's process group on purpose: Ctrl-C on the test run reaches it too.
 */
export async function spawnProcess(options: SpawnProcessOptions): Promise<SpawnedProcess> {
  const { name, readyTimeoutMs = 30_000 } = options;
  installExitHook();
  const child = spawn(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: mergeEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const lineListeners = new Set<(line: string) => void>();
  const record = (line: string): void => {
    lines.push(line);
    if (lines.length > MAX_KEPT_LINES) lines.shift();
    options.onLine?.(`[${name}] ${line}`);
    for (const listener of lineListeners) listener(line);
  };
  createInterface({ input: child.stdout }).on('line', record);
  createInterface({ input: child.stderr }).on('line', record);

  let exitStatus: ExitStatus | undefined;
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('error', (error) => record(`failed to start: ${error.message}`));
    child.once('close', (code, signal) => {
      exitStatus = { code, signal };
      liveProcesses.delete(child);
      resolve(exitStatus);
    });
  });
  liveProcesses.add(child);

  const output = (): string => lines.map((line) => `[${name}] ${line}`).join('\n');
  const outputTail = (): string =>
    lines
      .slice(-OUTPUT_TAIL_LINES)
      .map((line) => `[${name}] ${line}`)
      .join('\n');

  const waitForLine = (predicate: (line: string) => boolean, timeoutMs = readyTimeoutMs): Promise<string> =>
    new Promise((resolve, reject) => {
      const seen = lines.find(predicate);
      if (seen !== undefined) return resolve(seen);
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        lineListeners.delete(onLine);
        settle();
      };
      const onLine = (line: string): void => {
        if (predicate(line)) finish(() => resolve(line));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`${name}: no matching output line within ${timeoutMs} ms`))),
        timeoutMs,
      );
      lineListeners.add(onLine);
      void exited.then((status) =>
        finish(() => reject(new Error(`${name} exited (${describeExit(status)}) before the expected line`))),
      );
    });

  const kill = (signal: NodeJS.Signals = 'SIGTERM'): void => {
    if (!exitStatus) child.kill(signal);
  };

  const stop = async ({
    signal = 'SIGTERM' as NodeJS.Signals,
    timeoutMs = 10_000,
  } = {}): Promise<ExitStatus> => {
    kill(signal);
    // A cleared timer rather than a sleep: a pending timer would keep jest from exiting after the test.
    const escalation = setTimeout(() => kill('SIGKILL'), timeoutMs);
    try {
      return await exited;
    } finally {
      clearTimeout(escalation);
    }
  };

  const spawned: SpawnedProcess = { name, pid: child.pid ?? -1, output, waitForLine, kill, stop, exited };
  try {
    const deadline = Date.now() + readyTimeoutMs;
    if (options.readyWhen) await waitForLine(options.readyWhen, readyTimeoutMs);
    if (options.readyUrl) await pollUrlUntilOk(options.readyUrl, deadline, () => exitStatus);
  } catch (error) {
    kill('SIGKILL');
    await exited;
    throw new Error(
      `${name} did not become ready: ${(error as Error).message}\n--- output of ${name} ---\n${outputTail()}`,
      { cause: error },
    );
  }
  return spawned;
}

async function pollUrlUntilOk(
  url: string,
  deadline: number,
  exitStatus: () => ExitStatus | undefined,
): Promise<void> {
  let lastProblem = 'no answer yet';
  for (;;) {
    const status = exitStatus();
    if (status) throw new Error(`exited (${describeExit(status)}) before ${url} answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
      lastProblem = `HTTP ${response.status}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    if (Date.now() >= deadline) throw new Error(`${url} did not answer 2xx in time (${lastProblem})`);
    await sleep(READY_POLL_MS);
  }
}

function describeExit(status: ExitStatus): string {
  return status.signal ? `signal ${status.signal}` : `code ${status.code}`;
}

function mergeEnv(overrides: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}
