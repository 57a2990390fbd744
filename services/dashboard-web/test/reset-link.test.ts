import { execFile } from 'node:child_process';
import path from 'node:path';

import { isSecretTokenShape, tokenDigest } from '../src/domain/secret-token';
import { SqlAccountStore } from '../src/infra/sql-account-store';
import { aUser, createAccountsSchema, type AccountsSchema } from './support/accounts';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');
const COMMAND = path.resolve(__dirname, '../src/reset-link.ts');
const PUBLIC_URL = 'https://dashboard.sika.test';

// Each run is a tsx child process that compiles the command's sources: a few seconds on a busy machine.
jest.setTimeout(30_000);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let accounts: AccountsSchema;
let store: SqlAccountStore;

beforeAll(async () => {
  accounts = await createAccountsSchema('dashboard_reset_link');
  store = new SqlAccountStore(accounts.db);
});
afterAll(() => accounts.close());

/**
 * The operator's command as its own process, on the TypeScript sources (tsx, @sika/* from packages/<name>/src
 * as spawnService resolves them), with only the environment it reads.
 */
function resetLink(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', COMMAND, ...args],
      {
        cwd: WORKSPACE_ROOT,
        timeout: 25_000,
        env: {
          PATH: process.env.PATH,
          TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
          DATABASE_URL: accounts.schema.databaseUrl,
          DATABASE_SCHEMA: accounts.schema.schema,
          PUBLIC_URL,
          PASSWORD_RESET_VALIDITY: '1h',
        },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function resetCount(): Promise<number> {
  const [row] = await accounts.schema.query<{ count: string }>('SELECT count(*) FROM password_resets');
  return Number(row!.count);
}

it('prints a link, valid for PASSWORD_RESET_VALIDITY, whose token sets a new password once', async () => {
  const user = aUser();
  await store.createUser(user);
  const before = Date.now();

  // As an operator may paste it from a message: another case, stray spaces.
  const run = await resetLink(`  ${user.email.toUpperCase()} `);

  expect(run).toMatchObject({ code: 0, stderr: '' });
  const printed = JSON.parse(run.stdout) as { url: string; expires_at: string };
  expect(Object.keys(printed).sort()).toEqual(['expires_at', 'url']);
  const url = new URL(printed.url);
  expect(url.origin).toBe(PUBLIC_URL);
  const [, route, token] = url.pathname.split('/');
  expect(route).toBe('reset');
  expect(isSecretTokenShape(token!)).toBe(true);
  const expiresAt = new Date(printed.expires_at).getTime();
  expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
  expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);

  // Only the token's digest is stored: a read of the table gives no usable link.
  const rows = await accounts.schema.query<{ token_hash: string; user_id: string }>(
    'SELECT token_hash, user_id FROM password_resets',
  );
  expect(rows).toEqual([{ token_hash: tokenDigest(token!), user_id: user.id }]);

  expect(await store.findPasswordReset(tokenDigest(token!), new Date())).toEqual(user);
  expect(await store.consumePasswordReset(tokenDigest(token!), new Date(), 'new-hash')).toEqual({
    ...user,
    passwordHash: 'new-hash',
  });
  expect(await store.consumePasswordReset(tokenDigest(token!), new Date(), 'again')).toBeUndefined();
});

it('exits non-zero for an unknown email, saying so, with no link printed or stored', async () => {
  const countBefore = await resetCount();

  const run = await resetLink('nobody-here@example.com');

  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr.trim()).toBe('No dashboard account uses this email address.');
  expect(await resetCount()).toBe(countBefore);
});
