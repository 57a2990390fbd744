import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import infrastructureSetup from '../../packages/testing/src/jest-global-setup';
import { adminUrlFromEnv } from '../../scripts/stack/infra';
import { E2E_ENV, REPOSITORY_ROOT, STACK_PORTS } from './environment';
import { rememberStack } from './stack-handle';

/**
 * Starts the whole system once for the end-to-end project, exactly as `scripts/start.sh` does (same runner,
 * same service table, same ports), on its own database so a developer's local data is left alone.
 */
export default async function globalSetup(): Promise<void> {
  await infrastructureSetup();
  assertBuilt();
  await assertPortsFree();
  await dropE2eDatabase();
  migrate();
  rememberStack(await startStack());
}

function assertBuilt(): void {
  const servicesRoot = path.join(REPOSITORY_ROOT, 'services');
  const unbuilt = readdirSync(servicesRoot).filter(
    (service) => !existsSync(path.join(servicesRoot, service, 'dist', 'main.js')),
  );
  if (unbuilt.length > 0) {
    throw new Error(
      `end-to-end tests run the built services; run \`pnpm build\` first (missing: ${unbuilt.join(', ')})`,
    );
  }
}

async function assertPortsFree(): Promise<void> {
  const taken = (
    await Promise.all(STACK_PORTS.map(async (port) => ((await answers(port)) ? port : undefined)))
  ).filter((port) => port !== undefined);
  if (taken.length > 0) {
    throw new Error(
      `ports ${taken.join(', ')} are in use: stop the local stack (Ctrl-C in scripts/start.sh) before the end-to-end tests`,
    );
  }
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Each run starts from an empty database, so that the audit at its end (global-teardown.ts) judges exactly
 * what this run did, never the leftovers of an earlier one.
 */
async function dropE2eDatabase(): Promise<void> {
  const admin = new Client({ connectionString: adminUrlFromEnv(process.env) });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${E2E_ENV.SIKA_DB_NAME}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

function migrate(): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db/migrate.ts'], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, ...E2E_ENV },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`db:migrate failed:\n${run.stdout}${run.stderr}`);
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
