import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createTestSchema, spawnProcess, type SpawnedProcess, type TestSchema } from '@sika/testing';

export const CLIENT = { clientId: 'sika-test', clientSecret: 'simulator-secret-for-tests' };

const REPO_ROOT = path.resolve(__dirname, '../../..');
const FIXTURE = path.join(__dirname, 'fixtures/simulator-process.ts');

export interface SimulatorProcess {
  process: SpawnedProcess;
  baseUrl: string;
}

/**
 * Starts the simulator as its own process on `schema` (tsx runs the TypeScript sources: @sika/* resolve to
 * packages/<name>/src through tsconfig.test.json's paths). Prisma's client loads its query compiler with a
 * dynamic import(), which jest's CommonJS sandbox refuses, so services run outside jest.
 */
export async function spawnSimulator(
  db: TestSchema,
  env: Readonly<Record<string, string>> = {},
): Promise<SimulatorProcess> {
  const listening = /"port":(\d+).*"msg":"pispi-simulator listening"/;
  const spawned = await spawnProcess({
    name: 'pispi-simulator',
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE],
    cwd: REPO_ROOT,
    env: {
      TSX_TSCONFIG_PATH: path.join(REPO_ROOT, 'tsconfig.test.json'),
      DATABASE_URL: db.databaseUrl,
      DB_SCHEMA: db.schema,
      HTTP_PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
      SIMULATOR_CLIENT_ID: CLIENT.clientId,
      SIMULATOR_CLIENT_SECRET: CLIENT.clientSecret,
      SIMULATOR_PAYER_DELAY: '50ms',
      SIMULATOR_CALLBACK_TIMEOUT: '2s',
      SIMULATOR_POLL_INTERVAL: '50ms',
      ...env,
    },
    readyWhen: (line) => listening.test(line),
    ...(process.env.TEST_LOG_LEVEL && { onLine: (line: string) => process.stderr.write(`${line}\n`) }),
  });
  const port = listening.exec(await spawned.waitForLine((line) => listening.test(line)))?.[1];
  return { process: spawned, baseUrl: `http://127.0.0.1:${port}` };
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
