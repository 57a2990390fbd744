// Runs every jest project (unit, integration, deploy, e2e, then faults on its own) and ends with the one
// line CI reads: `jest: N passed, N failed`. Jest's own summary does not have that shape, so the counts come from its
// --json report. A suite that cannot run (compile error, failing hook) counts as one failure, and a run
// where no test passed fails too: an empty run must never look green.
//
// Extra arguments go to jest, in one run: `pnpm test --selectProjects unit`, `pnpm test packages/messaging`.
// Without any, the faults project runs after the others, alone: it starts a stack of its own on the local
// stack's ports, which the end-to-end stack holds while the e2e project runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';

const require = createRequire(import.meta.url);
const treeKill = require('tree-kill');
const root = join(import.meta.dirname, '..');

// Tests wait on Postgres, RabbitMQ, child processes and real deadlines: with one worker per core a quarter of
// a 2-core machine stayed idle (main run 220 s), with one more worker a tenth (189 s). At most 4, so that the
// servers on the same machine are not starved.
const workers = process.env.JEST_WORKERS ?? String(Math.min(4, availableParallelism() + 1));
// Under the 15-minute budget with room for install and build: a hung run fails with a reason.
const timeoutMinutes = Number(process.env.TEST_TIMEOUT_MINUTES ?? 13);
// Jest writes its report when the run is over, then waits for every handle a test left open (a socket,
// a timer). Rather than wait forever, or pass --forceExit and warn on every run, stop it and say why.
const LINGER_MS = 10_000;

// A jest stopped by force runs no global teardown: the stack it started (services in process groups of their
// own) would keep the stack's ports and fail the next run. So the whole tree goes, read before any of it dies.
function stopJest(jest) {
  treeKill(jest.pid, 'SIGKILL', (error) => {
    if (error) jest.kill('SIGKILL');
  });
}

const extraArguments = process.argv.slice(2);
const phases =
  extraArguments.length > 0
    ? [extraArguments]
    : [
        ['--selectProjects', 'unit', 'integration', 'deploy', 'e2e'],
        // In band: each faults file starts a whole stack on the local ports, one at a time.
        ['--selectProjects', 'faults', '--runInBand'],
      ];
const deadline = Date.now() + timeoutMinutes * 60_000;

/** One jest run: its counts from the --json report, and what went wrong beyond failed tests. */
async function runJest(jestArguments) {
  const reportDir = mkdtempSync(join(tmpdir(), 'sika-jest-'));
  const reportFile = join(reportDir, 'report.json');
  const jest = spawn(
    process.execPath,
    [
      require.resolve('jest/bin/jest'),
      '--ci',
      ...(jestArguments.includes('--runInBand') ? [] : [`--maxWorkers=${workers}`]),
      '--json',
      `--outputFile=${reportFile}`,
      ...jestArguments,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const forward = (signal) => jest.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, forward);

  let timedOut = false;
  const watchdog = setTimeout(
    () => {
      timedOut = true;
      stopJest(jest);
    },
    Math.max(0, deadline - Date.now()),
  );

  let lingered = false;
  let lingerTimer;
  const reportWatch = setInterval(() => {
    if (!existsSync(reportFile)) return;
    clearInterval(reportWatch);
    lingerTimer = setTimeout(() => {
      lingered = true;
      stopJest(jest);
    }, LINGER_MS);
  }, 500);

  const exitCode = await new Promise((resolve) => jest.on('close', (code) => resolve(code)));
  clearTimeout(watchdog);
  clearInterval(reportWatch);
  clearTimeout(lingerTimer);
  for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, forward);

  const problems = [];
  let passed = 0;
  let failed = 0;
  if (existsSync(reportFile)) {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    passed = report.numPassedTests;
    failed = report.numFailedTests;
    for (const suite of report.testResults) {
      const hasFailedTest = suite.assertionResults.some((test) => test.status === 'failed');
      if (suite.status === 'failed' && !hasFailedTest) {
        failed += 1;
        problems.push(`suite failed to run: ${suite.name}`);
      }
    }
  } else {
    failed = 1;
    problems.push('jest wrote no report');
  }
  rmSync(reportDir, { recursive: true, force: true });

  if (timedOut) problems.push(`jest was stopped after ${timeoutMinutes} minutes`);
  if (lingered) {
    problems.push(
      `jest was still running ${LINGER_MS / 1000}s after the tests finished: a test leaves a handle open ` +
        '(find it with --detectOpenHandles)',
    );
  } else if (exitCode !== 0 && failed === 0) {
    failed = 1;
    problems.push(`jest exited with code ${exitCode} although no test failed`);
  }
  return { passed, failed, problems };
}

const problems = [];
let passed = 0;
let failed = 0;
for (const phase of phases) {
  const outcome = await runJest(phase);
  passed += outcome.passed;
  failed += outcome.failed;
  problems.push(...outcome.problems);
  if (Date.now() >= deadline) break;
}
if (passed === 0) problems.push('no test passed: did anything run?');

for (const problem of problems) console.error(problem);
console.log(`jest: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
