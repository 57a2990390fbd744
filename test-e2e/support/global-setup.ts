import { spawn } from 'node:child_process';
import infrastructureSetup from '../../packages/testing/src/jest-global-setup';
import { OtlpReceiver } from '../../packages/testing/src/otlp-receiver';
import { E2E_ENV, OTLP_ENDPOINT_VARIABLE, REPOSITORY_ROOT } from './environment';
import { recordStackOutput, rememberStack, rememberTraceReceiver } from './stack-handle';
import { assertBuilt, assertPortsFree, purgeStackQueues, recreateDatabase } from './stack-preparation';

/**
 * Starts the whole system once for the end-to-end project, exactly as `scripts/start.sh` does (same runner,
 * same service table, same ports), on its own database so a developer's local data is left alone; every
 * service traced at 100 % to an OTLP receiver of this process, whose address the test files find in
 * SIKA_E2E_OTLP_ENDPOINT (jest's workers inherit this process's environment).
 */
export default async function globalSetup(): Promise<void> {
  await infrastructureSetup();
  assertBuilt();
  await assertPortsFree();
  await recreateDatabase(E2E_ENV);
  await purgeStackQueues();
  const receiver = await OtlpReceiver.start();
  rememberTraceReceiver(receiver);
  process.env[OTLP_ENDPOINT_VARIABLE] = receiver.endpoint;
  rememberStack(await startStack(tracingEnv(receiver.endpoint)));
}

/**
 * Every span kept and sent within a fifth of a second, so a test finds a trace soon after its request; the queue
 * between exports holds what the suite's parallel files make on a slow machine (2,048 by default, then dropped).
 */
function tracingEnv(endpoint: string): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_TRACES_SAMPLER: 'parentbased_always_on',
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_BSP_MAX_QUEUE_SIZE: '20000',
  };
}

function startStack(tracing: Record<string, string>): Promise<ReturnType<typeof spawn>> {
  const stack = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/stack/main.ts', '--ready-timeout', '120'],
    {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, ...E2E_ENV, ...tracing, NO_COLOR: '1' },
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
