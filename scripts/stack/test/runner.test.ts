import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const TABLE = 'scripts/stack/test/fixtures/table.ts';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

interface Runner {
  child: ChildProcess;
  output: () => string;
  waitForOutput: (pattern: RegExp) => Promise<void>;
  exitCode: Promise<number | null>;
}

/** Runs the stack runner on the fixture table, the way scripts/start.sh runs it on the real one. */
async function startRunner(betaBehaviour: string, extraArgs: string[] = []): Promise<Runner> {
  const env = { ...process.env, ALPHA_PORT: String(await freePort()), BETA_PORT: String(await freePort()) };
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/stack/main.ts', '--table', TABLE, ...extraArgs],
    { cwd: ROOT, env: { ...env, BETA_BEHAVIOUR: betaBehaviour }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let text = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  const exitCode = once(child, 'close').then(([code]) => code as number | null);
  const waitForOutput = async (pattern: RegExp) => {
    while (!pattern.test(text)) {
      if (child.exitCode !== null) throw new Error(`runner exited before printing ${pattern}:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return { child, output: () => text, waitForOutput, exitCode };
}

const lineIndex = (text: string, start: string) =>
  text.split('\n').findIndex((line) => line.startsWith(start));

describe('stack runner', () => {
  jest.setTimeout(20_000);

  it('prefixes logs, waits for readiness, prints the URLs and stops everything cleanly on SIGINT', async () => {
    const runner = await startRunner('normal');
    await runner.waitForOutput(/Ctrl-C stops them all/);

    const started = runner.output();
    expect(started).toContain('alpha        | alpha listening on');
    expect(started).toContain('beta-service | beta-service writes to stderr too');
    const ready = lineIndex(started, 'stack        | all 2 services ready in ');
    expect(ready).toBeGreaterThan(0);
    expect(lineIndex(started, 'alpha        | alpha answers /readyz with 200')).toBeLessThan(ready);
    expect(lineIndex(started, 'beta-service | beta-service answers /readyz with 200')).toBeLessThan(ready);
    expect(started).toMatch(/stack {8}\| {3}alpha home: http:\/\/127\.0\.0\.1:\d+\//);

    runner.child.kill('SIGINT');
    expect(await runner.exitCode).toBe(0);
    const stopped = runner.output();
    expect(stopped).toContain('alpha        | alpha got SIGTERM');
    expect(stopped).toContain('beta-service | beta-service got SIGTERM');
    expect(stopped).toContain('stack        | alpha stopped (exit code 0)');
    expect(stopped).toContain('stack        | beta-service stopped (exit code 0)');
  });

  it('stops everything and exits non-zero when a service dies', async () => {
    const runner = await startRunner('crash');

    expect(await runner.exitCode).toBe(1);
    const text = runner.output();
    expect(text).toContain('beta-service stopped unexpectedly (exit code 3)');
    expect(text).toContain('alpha        | alpha got SIGTERM');
    expect(text).toContain('stack        | alpha stopped (exit code 0)');
  });

  it('names the service that is not ready in time, with its last lines', async () => {
    const runner = await startRunner('never-ready', ['--ready-timeout', '1.5']);

    expect(await runner.exitCode).toBe(1);
    const text = runner.output();
    expect(text).toContain('not ready after 1.5s: beta-service;');
    expect(text).toMatch(/beta-service: http:\/\/127\.0\.0\.1:\d+\/readyz did not answer 200/);
    expect(text).toContain('stack        |   beta-service listening on');
    expect(text).not.toContain('all 2 services ready');
  });
});
