import { Writable } from 'node:stream';

import { createLogger } from './logger';
import { installShutdown } from './shutdown';
import type { ShutdownStep } from './shutdown';

const quietLogger = createLogger({
  service: 'shutdown-test',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});

/** Signals are left to the child-process test; here the sequence is started by hand. */
function install(
  steps: ShutdownStep[],
  timeoutMs = 1_000,
): { exitCodes: number[]; shutdown: (reason: string) => Promise<void> } {
  const exitCodes: number[] = [];
  const { shutdown } = installShutdown({
    logger: quietLogger,
    steps,
    timeoutMs,
    signals: [],
    exit: (code) => exitCodes.push(code),
  });
  return { exitCodes, shutdown };
}

function recordingStep(name: string, calls: string[], fail = false): ShutdownStep {
  return {
    name,
    run: async () => {
      calls.push(name);
      if (fail) throw new Error(`${name} failed`);
    },
  };
}

describe('installShutdown', () => {
  it('runs the steps in order, once, then exits 0', async () => {
    const calls: string[] = [];
    const { exitCodes, shutdown } = install([recordingStep('servers', calls), recordingStep('pools', calls)]);

    await Promise.all([shutdown('SIGTERM'), shutdown('SIGINT')]);

    expect(calls).toEqual(['servers', 'pools']);
    expect(exitCodes).toEqual([0]);
  });

  it('still runs the later steps when one fails, and exits 1', async () => {
    const calls: string[] = [];
    const { exitCodes, shutdown } = install([
      recordingStep('drain', calls, true),
      recordingStep('pools', calls),
    ]);

    await shutdown('SIGTERM');

    expect(calls).toEqual(['drain', 'pools']);
    expect(exitCodes).toEqual([1]);
  });

  it('exits 1 when the steps outlast the timeout', async () => {
    const { exitCodes, shutdown } = install([{ name: 'stuck', run: () => new Promise<void>(() => {}) }], 20);

    void shutdown('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 60));

    expect(exitCodes).toEqual([1]);
  });
});
