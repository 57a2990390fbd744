import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');

export interface RunningChild {
  child: ChildProcess;
  /** Lines written so far, and each new one as it comes. */
  stdoutLines: string[];
  stderr(): string;
  /** Resolves with the first stdout line (past or future) matching `predicate`. */
  waitForLine(predicate: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs a TypeScript fixture as its own Node process through tsx, with `@sika/*` resolved to sources (the
 * paths of tsconfig.test.json), and only the environment given plus PATH: nothing leaks in from the
 * developer's shell.
 */
export function spawnTypeScript(file: string, env: Record<string, string> = {}): RunningChild {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: WORKSPACE_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdoutLines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  let partial = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      stdoutLines.push(line);
      for (const listener of listeners) listener(line);
    }
  });
  let stderrText = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderrText += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    // 'close', not 'exit': it comes after the last output has been read.
    child.on('close', (code, signal) => resolve({ code, signal }));
  });

  function waitForLine(predicate: (line: string) => boolean, timeoutMs = 15_000): Promise<string> {
    const existing = stdoutLines.find(predicate);
    if (existing !== undefined) return Promise.resolve(existing);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`no matching line within ${timeoutMs} ms; stderr: ${stderrText}`));
      }, timeoutMs);
      const listener = (line: string): void => {
        if (!predicate(line)) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve(line);
      };
      listeners.add(listener);
      void exited.then(() => {
        if (!listeners.has(listener)) return;
        clearTimeout(timer);
        listeners.delete(listener);
        reject(new Error(`process exited before a matching line; stderr: ${stderrText}`));
      });
    });
  }

  return { child, stdoutLines, stderr: () => stderrText, waitForLine, exited };
}

/** Parses the JSON log lines of a child, skipping anything else it printed. */
export function jsonLines(lines: readonly string[]): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      const parsed: unknown = JSON.parse(line);
      return typeof parsed === 'object' && parsed !== null ? [parsed as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

export function fixture(name: string): string {
  return path.join(__dirname, '..', 'fixtures', name);
}
