import { fixture, jsonLines, spawnTypeScript } from './helpers/child-process';

const SHUTDOWN_MAIN = fixture('shutdown-main.ts');

function messages(lines: readonly string[]): string[] {
  return jsonLines(lines).map((line) => [line['msg'], line['step']].filter(Boolean).join(': '));
}

describe('a process with installShutdown', () => {
  it('runs its steps in order on SIGTERM, once even if SIGINT follows, and exits 0', async () => {
    const run = spawnTypeScript(SHUTDOWN_MAIN);
    await run.waitForLine((line) => line.includes('"ready"'));

    run.child.kill('SIGTERM');
    await run.waitForLine((line) => line.includes('step started'));
    run.child.kill('SIGINT');

    expect(await run.exited).toEqual({ code: 0, signal: null });
    const logged = messages(run.stdoutLines);
    // Where the SIGINT line falls depends on scheduling; that it appears once and changes nothing does not.
    expect(logged.filter((message) => message === 'shutdown already in progress')).toHaveLength(1);
    expect(logged.filter((message) => message !== 'shutdown already in progress')).toEqual([
      'ready',
      'shutting down',
      'step started: stop accepting',
      'shutdown step done: stop accepting',
      'step started: drain',
      'shutdown step done: drain',
      'step started: close pools',
      'shutdown step done: close pools',
      'shutdown complete',
    ]);
  });

  it('exits 1 when a step hangs past the timeout', async () => {
    const run = spawnTypeScript(SHUTDOWN_MAIN, { HANG_STEP: '1' });
    await run.waitForLine((line) => line.includes('"ready"'));

    run.child.kill('SIGINT');

    expect(await run.exited).toEqual({ code: 1, signal: null });
    expect(messages(run.stdoutLines)).toContain('shutdown timed out');
    expect(messages(run.stdoutLines)).not.toContain('step started: close pools');
  });
});
