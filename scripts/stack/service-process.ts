import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

import { RecentLines } from './output';
import type { ServiceSpec } from './services';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the command could not be started at all. */
  error?: Error;
}

export function describeExit(exit: Exit): string {
  if (exit.error) return `could not start: ${exit.error.message}`;
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

/**
 * One service as a child process. It runs in its own process group, so a Ctrl-C in the terminal reaches
 * only the runner, which then stops every service the same way (SIGTERM to the group, SIGKILL later).
 */
export class ServiceProcess {
  readonly recent = new RecentLines(20);
  readonly exited: Promise<Exit>;
  private exit: Exit | undefined;
  private readonly child: ChildProcess;

  constructor(
    readonly spec: ServiceSpec,
    cwd: string,
    write: (line: string) => void,
  ) {
    this.child = spawn(spec.command, [...spec.args], {
      cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const forward = (stream: Readable | null) => {
      if (!stream) return;
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        this.recent.push(line);
        write(line);
      });
    };
    forward(this.child.stdout);
    forward(this.child.stderr);
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => resolve(this.record({ code: null, signal: null, error })));
      // 'close', not 'exit': it comes after the last output line has been read
      this.child.once('close', (code, signal) => resolve(this.record({ code, signal })));
    });
  }

  get hasExited(): boolean {
    return this.exit !== undefined;
  }

  /** SIGTERM, then SIGKILL if the service has not exited after `graceMs`. */
  async stop(graceMs: number): Promise<{ exit: Exit; killed: boolean }> {
    this.signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace over'>((resolve) => {
      timer = setTimeout(() => resolve('grace over'), graceMs);
    });
    const first = await Promise.race([this.exited, graceOver]);
    clearTimeout(timer);
    if (first !== 'grace over') return { exit: first, killed: false };
    this.signal('SIGKILL');
    return { exit: await this.exited, killed: true };
  }

  signal(signal: NodeJS.Signals): void {
    if (this.hasExited || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // the group is already gone: 'close' is on its way
    }
  }

  private record(exit: Exit): Exit {
    this.exit ??= exit;
    return this.exit;
  }
}
