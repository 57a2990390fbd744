import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { adminUrlFromEnv } from '../../scripts/stack/infra';
import { REPOSITORY_ROOT, STACK_PORTS } from './environment';

/** What a run of the whole system needs before it starts: built services, free ports, a fresh database. */

export function assertBuilt(): void {
  const servicesRoot = path.join(REPOSITORY_ROOT, 'services');
  const unbuilt = readdirSync(servicesRoot).filter(
    (service) => !existsSync(path.join(servicesRoot, service, 'dist', 'main.js')),
  );
  if (unbuilt.length > 0) {
    throw new Error(
      `these tests run the built services; run \`pnpm build\` first (missing: ${unbuilt.join(', ')})`,
    );
  }
}

export async function assertPortsFree(): Promise<void> {
  const taken = (
    await Promise.all(STACK_PORTS.map(async (port) => ((await answers(port)) ? port : undefined)))
  ).filter((port) => port !== undefined);
  if (taken.length > 0) {
    throw new Error(
      `ports ${taken.join(', ')} are in use: stop the local stack (Ctrl-C in scripts/start.sh), or the other ` +
        'stack of the tests, first',
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
 * Each run starts from an empty database of its own, so that what it checks at its end (the audit) judges
 * exactly what it did, never the leftovers of an earlier run, and a developer's local data is left alone.
 */
export async function recreateDatabase(env: Readonly<Record<string, string>> & { SIKA_DB_NAME: string }) {
  const admin = new Client({ connectionString: adminUrlFromEnv(process.env) });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${env.SIKA_DB_NAME}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db/migrate.ts'], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`db:migrate failed:\n${run.stdout}${run.stderr}`);
}
