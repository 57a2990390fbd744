import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const HUNG_RUN_CONFIG = join(__dirname, 'fixtures', 'never-ends', 'jest.config.js');
/** Long enough for jest to start and run the fixture's first lines on a loaded machine. */
const TIME_LIMIT_MINUTES = '0.25';

/** A process that is gone, or a zombie waiting for a parent that will never read its exit. */
function isGone(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return true;
  const state = readFileSync(stat, 'utf8').split(') ')[1]?.[0];
  return state === 'Z' || state === 'X';
}

describe('scripts/run-tests.mjs', () => {
  jest.setTimeout(60_000);

  it('stops a run past its time limit with every process it started, and says so', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sika-run-tests-'));
    const pidFile = join(directory, 'pid');
    try {
      const run = spawn(process.execPath, ['scripts/run-tests.mjs', '--config', HUNG_RUN_CONFIG], {
        cwd: ROOT,
        env: { ...process.env, TEST_TIMEOUT_MINUTES: TIME_LIMIT_MINUTES, SIKA_FIXTURE_PID_FILE: pidFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      run.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      run.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const [exitCode] = (await once(run, 'close')) as [number | null];

      expect(exitCode).toBe(1);
      expect(output).toContain(`jest was stopped after ${TIME_LIMIT_MINUTES} minutes`);
      expect(output).toContain('jest: 0 passed, 1 failed');
      const started = Number(readFileSync(pidFile, 'utf8'));
      expect(started).toBeGreaterThan(0);
      expect(isGone(started)).toBe(true);
    } finally {
      // Without the fix the fixture's process outlives the run: it must not outlive this test too.
      if (existsSync(pidFile) && !isGone(Number(readFileSync(pidFile, 'utf8')))) {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
      }
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
