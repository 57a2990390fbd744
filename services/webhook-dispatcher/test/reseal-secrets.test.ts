import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { newId } from '@sika/platform';
import { createTestSchema, type TestSchema } from '@sika/testing';
import { SecretBox } from '@sika/platform';
import { MIGRATIONS_DIR } from './support/dispatcher';
import { LEGACY_SECRET } from './support/legacy-secret';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');
const COMMAND = path.resolve(__dirname, '../src/reseal-secrets.ts');
const HOUR = 3_600_000;

// Each run is a tsx child process: a few seconds on a busy machine.
jest.setTimeout(30_000);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Row {
  id: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
}

let db: TestSchema;
const oldKey = LEGACY_SECRET.key;
const newKey = randomBytes(32);
const before = new SecretBox(oldKey);
const after = new SecretBox(newKey);

beforeAll(async () => {
  db = await createTestSchema({ prefix: 'webhooks_reseal', migrationsDir: MIGRATIONS_DIR });
});

afterAll(() => db.drop());

/**
 * The operator's command as its own process, on the TypeScript sources (tsx, @sika/* from packages/<name>/src
 * as spawnService resolves them), with only the environment it reads.
 */
function reseal(keys: { current: Buffer; previous: Buffer[] }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', COMMAND],
      {
        cwd: WORKSPACE_ROOT,
        timeout: 25_000,
        env: {
          PATH: process.env.PATH,
          TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
          DATABASE_URL: db.databaseUrl,
          DATABASE_SCHEMA: db.schema,
          WEBHOOK_SECRET_KEY: keys.current.toString('base64'),
          WEBHOOK_SECRET_PREVIOUS_KEYS: keys.previous.map((key) => key.toString('base64')).join(','),
        },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function insertEndpoint(row: Row): Promise<void> {
  await db.query(
    `INSERT INTO endpoints (id, merchant_id, livemode, secret_ciphertext, previous_secret_ciphertext,
                            previous_secret_expires_at, created_at, updated_at)
     VALUES ($1, $2, false, $3, $4, $5, now(), now())`,
    [
      row.id,
      newId('mer'),
      row.secret_ciphertext,
      row.previous_secret_ciphertext,
      row.previous_secret_expires_at,
    ],
  );
}

const rows = () =>
  db.query<Row>(
    `SELECT id, secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at
       FROM endpoints ORDER BY id`,
  );

it('reseals every secret with the new key, drops ended overlaps, and changes nothing when run again', async () => {
  const overlapping = {
    id: newId('whe'),
    current: 'whsec_overlappingCurrent0000000000',
    previous: 'whsec_overlappingPrevious000000000',
  };
  const ended = {
    id: newId('whe'),
    current: 'whsec_endedCurrent0000000000000000',
    previous: 'whsec_endedPrevious000000000000000',
  };
  const resealed = { id: newId('whe'), current: 'whsec_alreadyResealed0000000000000' };
  const future = new Date(Date.now() + HOUR);
  const past = new Date(Date.now() - HOUR);
  await insertEndpoint({
    id: LEGACY_SECRET.endpointId,
    secret_ciphertext: LEGACY_SECRET.sealed,
    previous_secret_ciphertext: null,
    previous_secret_expires_at: null,
  });
  await insertEndpoint({
    id: overlapping.id,
    secret_ciphertext: before.seal(overlapping.current, overlapping.id),
    previous_secret_ciphertext: before.seal(overlapping.previous, overlapping.id),
    previous_secret_expires_at: future,
  });
  await insertEndpoint({
    id: ended.id,
    secret_ciphertext: after.seal(ended.current, ended.id),
    previous_secret_ciphertext: before.seal(ended.previous, ended.id),
    previous_secret_expires_at: past,
  });
  const untouched = after.seal(resealed.current, resealed.id);
  await insertEndpoint({
    id: resealed.id,
    secret_ciphertext: untouched,
    previous_secret_ciphertext: null,
    previous_secret_expires_at: null,
  });

  const run = await reseal({ current: newKey, previous: [oldKey] });

  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(run.stdout)).toEqual({ endpoints: 4, resealed: 3, unreadable: [] });
  expect(run.stdout).not.toContain('whsec_');
  // The new key alone now opens every secret, each still what it was.
  const byId = new Map((await rows()).map((row) => [row.id, row]));
  const opened = (id: string) => {
    const row = byId.get(id)!;
    return {
      current: after.open(row.secret_ciphertext, id),
      previous:
        row.previous_secret_ciphertext === null ? null : after.open(row.previous_secret_ciphertext, id),
      expiresAt: row.previous_secret_expires_at,
    };
  };
  expect(opened(LEGACY_SECRET.endpointId)).toEqual({
    current: LEGACY_SECRET.secret,
    previous: null,
    expiresAt: null,
  });
  expect(opened(overlapping.id)).toEqual({
    current: overlapping.current,
    previous: overlapping.previous,
    expiresAt: future,
  });
  expect(opened(ended.id)).toEqual({ current: ended.current, previous: null, expiresAt: null });
  expect(byId.get(resealed.id)?.secret_ciphertext).toBe(untouched);

  const snapshot = await rows();
  const again = await reseal({ current: newKey, previous: [oldKey] });
  expect(again).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(again.stdout)).toEqual({ endpoints: 4, resealed: 0, unreadable: [] });
  expect(await rows()).toEqual(snapshot);
});

it('exits 1 naming the endpoints no configured key opens, leaving them as they are', async () => {
  const lost = {
    id: newId('whe'),
    sealed: new SecretBox(randomBytes(32)).seal('whsec_lost000000000000000000000000', 'x'),
  };
  await insertEndpoint({
    id: lost.id,
    secret_ciphertext: lost.sealed,
    previous_secret_ciphertext: null,
    previous_secret_expires_at: null,
  });
  const count = (await rows()).length;

  const run = await reseal({ current: newKey, previous: [] });

  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout)).toEqual({ endpoints: count, resealed: 0, unreadable: [lost.id] });
  expect(run.stderr).toContain('1 endpoint secret(s) open with no configured key');
  expect((await rows()).find((row) => row.id === lost.id)?.secret_ciphertext).toBe(lost.sealed);
});

it('refuses to run without a valid WEBHOOK_SECRET_KEY, naming it', async () => {
  const run = await reseal({ current: Buffer.alloc(16), previous: [] });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('WEBHOOK_SECRET_KEY is invalid');
});
