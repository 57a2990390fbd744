import { randomUUID } from 'node:crypto';
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
import type { DemandePaiementRequest } from '@sika/pispi';
import { receiveDemande, type DemandeRecord, type ScheduledPayerAction } from '../src/domain/demande';

export const CLIENT = { clientId: 'sika-test', clientSecret: 'simulator-secret-for-tests' };

/** A txId as Sika's attempts have them. */
export function newAttemptTxId(): string {
  return `att_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/**
 * A request-to-pay of 5,000 from this payer, received at `now` with two minutes to pay, its payer's answer due
 * at once: the id, record and payer action the demande repository records.
 */
export function receivedDemande(
  payeurAlias: string,
  now: Date,
  txId: string = newAttemptTxId(),
): { id: string; record: DemandeRecord; payerAction: ScheduledPayerAction | undefined } {
  const request: DemandePaiementRequest = {
    txId,
    payeurAlias,
    payeAlias: 'sika-test-payee',
    confirmation: false,
    montant: 5000,
    categorie: '521',
    dateLimitePaiement: new Date(now.getTime() + 120_000).toISOString(),
  };
  const { record, payerAction } = receiveDemande(request, `E2E${randomUUID()}`, now, 0);
  return { id: randomUUID(), record, payerAction };
}

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
      // Never within a test: every transfer's answer and callback (a retry too) goes out because the use case
      // that scheduled it told the worker, not because a sweep happened to find it.
      SIMULATOR_SWEEP_INTERVAL: '1h',
      // Tests read what it received from its log: each demande is a debug line.
      LOG_LEVEL: 'debug',
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
