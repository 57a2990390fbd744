import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { connect as connectBroker } from 'amqplib';
import { Client } from 'pg';
import { CONSUMER_QUEUES } from '../../packages/contracts/src/events';
import { deadLetterQueueName, retryQueueName } from '../../packages/messaging/src/topology';
import { adminUrlFromEnv } from '../../scripts/stack/infra';
import { REPOSITORY_ROOT, STACK_PORTS } from './environment';

/**
 * What a run of the whole system needs before it starts: built services, free ports, a fresh database, and
 * empty queues.
 */

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

/**
 * Empties the stack's queues (each consumer's, its retry and dead-letter queues): every stack of this machine
 * (a developer's, another run's, another checkout's) shares the broker, and what one left in a queue its next
 * run would apply to a database that never held it.
 */
export async function purgeStackQueues(
  amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
) {
  const connection = await connectBroker(amqpUrl);
  try {
    for (const { queue } of Object.values(CONSUMER_QUEUES)) {
      for (const name of [queue, retryQueueName(queue), deadLetterQueueName(queue)]) {
        // A channel per queue: the broker closes the channel of a purge on a queue that does not exist yet,
        // and that close is also emitted as an error, which must not end the process.
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        await channel.purgeQueue(name).catch(() => undefined);
        await channel.close().catch(() => undefined);
      }
    }
  } finally {
    await connection.close();
  }
}
