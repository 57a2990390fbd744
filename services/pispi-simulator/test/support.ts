import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  createTestSchema,
  loggedPort,
  spawnService,
  type SpawnedProcess,
  type TestSchema,
} from '@sika/testing';

export const CLIENT = { clientId: 'sika-test', clientSecret: 'simulator-secret-for-tests' };

export interface SimulatorProcess {
  process: SpawnedProcess;
  baseUrl: string;
}

/** The simulator's real main.ts as its own process, on `db`'s schema, with fast payers and worker. */
export async function spawnSimulator(
  db: TestSchema,
  env: Readonly<Record<string, string>> = {},
): Promise<SimulatorProcess> {
  const spawned = await spawnService('pispi-simulator', {
    env: {
      DATABASE_URL: db.databaseUrl,
      DATABASE_SCHEMA: db.schema,
      SIMULATOR_CLIENT_ID: CLIENT.clientId,
      SIMULATOR_CLIENT_SECRET: CLIENT.clientSecret,
      SIMULATOR_PAYER_DELAY: '50ms',
      SIMULATOR_CALLBACK_TIMEOUT: '2s',
      SIMULATOR_POLL_INTERVAL: '50ms',
      ...env,
    },
    readyMessage: 'pispi-simulator listening',
  });
  return {
    process: spawned,
    baseUrl: `http://127.0.0.1:${await loggedPort(spawned, 'pispi-simulator listening')}`,
  };
}

/** A fresh schema holding the simulator's committed migrations. */
export function createSimulatorSchema(): Promise<TestSchema> {
  return createTestSchema({
    prefix: 'simulator',
    migrationsDir: path.join(__dirname, '../prisma/migrations'),
  });
}

export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on a free port: records every POST; answers 500 to the first `failures` of them. */
export class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  failures = 0;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(this.received.length <= this.failures ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}/callbacks`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
