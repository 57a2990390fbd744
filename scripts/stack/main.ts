/**
 * The local stack runner: `node --import tsx scripts/stack/main.ts [--table <module>] [--ready-timeout <s>]`.
 * scripts/start.sh runs it after install, infrastructure, migrations and build. `--table` swaps the
 * service table (a module exporting `services: ServiceTable`), which the runner's own test uses.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { Client } from 'pg';

import { provisionBrokerUsers } from './broker-users';
import { claimLocalDatabase } from './database-claim';
import { usableDatabaseSocket } from './database-socket';
import { localDatabaseName } from '../db/service-databases';
import { adminUrlFromEnv, infraFromEnv, localBroker } from './infra';
import { LOCAL_TLS_DIRECTORY, loadLocalCertificates } from './local-certificates';
import { loadLocalSecrets, type LocalSecrets } from './local-secrets';
import { runStack } from './runner';
import type { ServiceTable } from './services';

const REPOSITORY_ROOT = resolve(__dirname, '..', '..');
const SIKA_TABLE = resolve(__dirname, 'services.ts');

async function loadTable(modulePath: string): Promise<ServiceTable> {
  type TableModule = { services?: ServiceTable };
  const loaded = (await import(pathToFileURL(resolve(modulePath)).href)) as TableModule & {
    default?: TableModule;
  };
  const table = loaded.services ?? loaded.default?.services;
  if (typeof table !== 'function') throw new Error(`${modulePath} does not export services: ServiceTable`);
  return table;
}

/** Stops before any service starts when another checkout's stack filled the database (database-claim.ts). */
async function claimDatabase(secrets: LocalSecrets): Promise<void> {
  const database = localDatabaseName(process.env);
  const admin = new Client({ connectionString: adminUrlFromEnv(process.env) });
  await admin.connect();
  try {
    if ((await claimLocalDatabase(admin, database, secrets, REPOSITORY_ROOT)) === 'claimed') {
      process.stdout.write(`database: ${database} is now this checkout's (its .sika/local-secrets.json)\n`);
    }
  } finally {
    await admin.end();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      table: { type: 'string', default: SIKA_TABLE },
      'ready-timeout': { type: 'string', default: '90' },
      'stop-grace': { type: 'string', default: '10' },
    },
  });
  const table = await loadTable(values.table);
  const secrets = loadLocalSecrets(join(REPOSITORY_ROOT, '.sika'));
  // Another table (the runner's own test) runs no Sika service: nothing of it goes to the database.
  if (values.table === SIKA_TABLE) await claimDatabase(secrets);
  await loadLocalCertificates(LOCAL_TLS_DIRECTORY);
  await provisionBrokerUsers({
    ...localBroker(process.env, secrets),
    managementUrl: process.env.RABBITMQ_MANAGEMENT_URL,
    log: (line) => process.stdout.write(`broker: ${line}\n`),
  });
  const servicesRoot = join(REPOSITORY_ROOT, 'services');
  // The runner's own test table has no service with a database to try the socket with.
  const databaseSocket =
    values.table === SIKA_TABLE
      ? await usableDatabaseSocket(
          process.env,
          infraFromEnv(process.env, servicesRoot, secrets).databaseUrlFor('payments'),
        )
      : undefined;
  if (databaseSocket !== undefined) {
    process.stdout.write(`database: the services connect through the Unix socket in ${databaseSocket}\n`);
  }
  return runStack({
    services: table(infraFromEnv(process.env, servicesRoot, secrets, databaseSocket)),
    cwd: REPOSITORY_ROOT,
    readyTimeoutMs: Number(values['ready-timeout']) * 1000,
    stopGraceMs: Number(values['stop-grace']) * 1000,
    stream: process.stdout,
    colour: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`stack: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
