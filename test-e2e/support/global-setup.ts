import { spawn } from 'node:child_process';
import infrastructureSetup from '../../packages/testing/src/jest-global-setup';
import { E2E_ENV, REPOSITORY_ROOT } from './environment';
import { recordStackOutput, rememberStack } from './stack-handle';
import { assertBuilt, assertPortsFree, purgeStackQueues, recreateDatabase } from './stack-preparation';

/**
 * Starts the whole system once for the end-to-end project, exactly as `scripts/start.sh` does (same runner,
 * same service table, same ports), on its own database so a developer's local data is left alone.
 */
export default async function globalSetup(): Promise<void> {
  await infrastructureSetup();
  assertBuilt();
  await assertPortsFree();
  await recreateDatabase(E2E_ENV);
  await purgeStackQueues();
  rememberStack(await startStack());
}

function startStack(): Promise<ReturnType<typeof spawn>> {
  const stack = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/stack/main.ts', '--ready-timeout', '120'],
    {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, ...E2E_ENV, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  recordStackOutput(stack);
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.length === 0) continue;
        lines.push(line);
        if (process.env.SIKA_E2E_VERBOSE) process.stderr.write(`${line}\n`);
        if (/services ready in/.test(line)) resolve(stack);
      }
    };
    stack.stdout?.on('data', onData);
    stack.stderr?.on('data', onData);
    stack.once('exit', (code) =>
      reject(
        new Error(`the stack stopped before it was ready (exit ${code}):\n${lines.slice(-60).join('\n')}`),
      ),
    );
  });
}
