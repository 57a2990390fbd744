import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { signBody } from '@sika/pispi';
import { resolveAmqpUrl, waitFor, type TestSchema } from '@sika/testing';

import {
  CLIENT,
  createSimulatorSchema,
  spawnSimulator,
  type SimulatorProcess,
} from '../../pispi-simulator/test/support';
import {
  CALLBACK_SECRET_KEY,
  createPspSchema,
  EventsTap,
  spawnConnector,
  type ConnectorProcess,
} from './support';

// Real processes (tsx compiles at start) on 2 shared cores.
jest.setTimeout(60_000);

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');
const RESEAL_COMMAND = path.resolve(__dirname, '../src/reseal-callback-secrets.ts');
const PAYEE_ALIAS = 'sika-test-secrets';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The callback secret of the test mode as psp-connector stores it. */
interface StoredSecret {
  secret: string | null;
  secret_ciphertext: string | null;
}

describe('the callback secret at rest', () => {
  let simulatorDb: TestSchema;
  let pspDb: TestSchema;
  let simulator: SimulatorProcess;
  let events: EventsTap;
  let env: Record<string, string>;
  let connector: ConnectorProcess | undefined;

  beforeAll(async () => {
    [simulatorDb, pspDb, events] = await Promise.all([
      createSimulatorSchema(),
      createPspSchema(),
      EventsTap.open(),
    ]);
    simulator = await spawnSimulator(simulatorDb);
    env = {
      DATABASE_URL: pspDb.databaseUrl,
      DATABASE_SCHEMA: pspDb.schema,
      AMQP_URL: await resolveAmqpUrl(),
      EVENTS_EXCHANGE: events.exchange,
      PISPI_TEST_BASE_URL: simulator.baseUrl,
      PISPI_TEST_CLIENT_ID: CLIENT.clientId,
      PISPI_TEST_CLIENT_SECRET: CLIENT.clientSecret,
      PISPI_TEST_PAYEE_ALIAS: PAYEE_ALIAS,
      REFUND_REQUESTS_QUEUE: events.queueName('psp-secrets.refund-requests'),
      PAYOUT_TRANSFERS_QUEUE: events.queueName('psp-secrets.payout-transfers'),
    };
    connector = await spawnConnector(env);
  });

  afterAll(async () => {
    await connector?.process.stop();
    await simulator?.process.stop();
    await events?.close();
    await Promise.all([simulatorDb?.drop(), pspDb?.drop()]);
  });

  const stored = async (): Promise<StoredSecret> => {
    const [row] = await pspDb.query<StoredSecret & Record<string, unknown>>(
      "SELECT secret, secret_ciphertext FROM scheme_webhooks WHERE mode = 'test'",
    );
    if (!row) throw new Error('no test registration');
    return row;
  };
  /** What the participant issued and signs with. */
  const participantSecret = async (): Promise<string> => {
    const [row] = await simulatorDb.query<{ secret: string }>(
      'SELECT secret FROM webhooks WHERE deleted_at IS NULL AND alias = $1',
      [PAYEE_ALIAS],
    );
    if (!row) throw new Error('no registration at the simulator');
    return row.secret;
  };
  const keyIdOf = (sealed: string | null) => sealed?.split('.')[1];
  /** A signed callback about no request Sika sent: accepted (200) only if the connector opens its secret. */
  const postSignedCallback = async (): Promise<number> => {
    const body = JSON.stringify({
      data: [
        {
          evCode: 'PAIEMENT_RECU',
          evDate: new Date().toISOString(),
          txId: `att_${randomBytes(8).toString('hex')}`,
          end2endId: `E2E${randomBytes(8).toString('hex')}`,
          montant: 100,
          alias: PAYEE_ALIAS,
        },
      ],
      meta: { total: 1 },
    });
    const response = await fetch(`${connector!.httpUrl}/pispi/callbacks/test`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature': signBody(body, await participantSecret()),
      },
      body,
    });
    return response.status;
  };
  const restart = async (keys: Record<string, string>): Promise<void> => {
    const port = Number(new URL(connector!.httpUrl).port);
    await connector!.process.stop();
    connector = await spawnConnector({ ...env, ...keys }, port);
  };
  /** The operator's command, on the TypeScript sources, with only the environment it reads. */
  const reseal = (keys: Record<string, string>): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', RESEAL_COMMAND],
        {
          cwd: WORKSPACE_ROOT,
          timeout: 50_000,
          env: {
            PATH: process.env.PATH,
            TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
            DATABASE_URL: pspDb.databaseUrl,
            DATABASE_SCHEMA: pspDb.schema,
            ...keys,
          },
        },
        (error, stdout, stderr) => {
          resolve({
            code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
            stdout,
            stderr,
          });
        },
      );
    });

  it('is stored sealed (AES-256-GCM, the key named by its id), never in clear', async () => {
    const row = await stored();
    const secret = await participantSecret();
    expect(row.secret).toBeNull();
    expect(row.secret_ciphertext).toMatch(/^v2\.[A-Za-z0-9_-]{11}\.[^.]+\.[^.]+\.[^.]+$/);
    expect(row.secret_ciphertext).not.toContain(secret);
    expect(await postSignedCallback()).toBe(200);
  });

  it('seals at start a secret an earlier version stored in clear, and keeps the registration', async () => {
    const secret = await participantSecret();
    await pspDb.query(
      "UPDATE scheme_webhooks SET secret = $1, secret_ciphertext = NULL WHERE mode = 'test'",
      [secret],
    );
    await restart({});
    await waitFor(() => connector!.process.output().includes('scheme callback URL already registered'));
    const row = await stored();
    expect(row.secret).toBeNull();
    expect(row.secret_ciphertext).not.toContain(secret);
    expect(await participantSecret()).toBe(secret);
    expect(await postSignedCallback()).toBe(200);
  });

  it('is resealed by the command after a key rotation, so that the previous key can be dropped', async () => {
    const before = await stored();
    const newKey = randomBytes(32).toString('base64');

    const withoutOldKey = await reseal({ CALLBACK_SECRET_KEY: newKey });
    expect(withoutOldKey.code).toBe(1);
    expect(withoutOldKey.stderr).toContain('sealed with a key that is not configured');
    expect(await stored()).toEqual(before);

    const rotation = { CALLBACK_SECRET_KEY: newKey, CALLBACK_SECRET_PREVIOUS_KEYS: CALLBACK_SECRET_KEY };
    const first = await reseal(rotation);
    expect({ code: first.code, stdout: JSON.parse(first.stdout) as unknown }).toEqual({
      code: 0,
      stdout: { test: 'resealed', live: 'absent' },
    });
    const after = await stored();
    expect(keyIdOf(after.secret_ciphertext)).not.toBe(keyIdOf(before.secret_ciphertext));
    expect(JSON.parse((await reseal(rotation)).stdout)).toEqual({ test: 'current', live: 'absent' });

    await restart({ CALLBACK_SECRET_KEY: newKey });
    await waitFor(() => connector!.process.output().includes('scheme callback URL already registered'));
    expect(await postSignedCallback()).toBe(200);
  });
});
