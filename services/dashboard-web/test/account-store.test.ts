import { newSecretToken, tokenDigest } from '../src/domain/secret-token';
import { SqlAccountStore } from '../src/infra/sql-account-store';
import type { UserRecord } from '../src/app/ports';
import { aUser, createAccountsSchema, type AccountsSchema } from './support/accounts';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const HOUR = 3_600_000;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);

let accounts: AccountsSchema;
let store: SqlAccountStore;

beforeAll(async () => {
  accounts = await createAccountsSchema('dashboard_accounts');
  store = new SqlAccountStore(accounts.db);
});
afterAll(() => accounts.close());

async function storedUser(overrides: Partial<UserRecord> = {}): Promise<UserRecord> {
  const user = aUser(overrides);
  expect(await store.createUser(user)).toBe(true);
  return user;
}

async function openSession(userId: string, expiresAt = at(HOUR)): Promise<string> {
  const tokenHash = tokenDigest(newSecretToken());
  await store.createSession({ tokenHash, userId, createdAt: NOW, expiresAt, authenticatedAt: NOW });
  return tokenHash;
}

/** A reset link as the operator's command stores it; returns the digest the link's token maps to. */
async function issueReset(userId: string, expiresAt = at(HOUR)): Promise<string> {
  const tokenHash = tokenDigest(newSecretToken());
  await store.createPasswordReset({ tokenHash, userId, createdAt: NOW, expiresAt });
  return tokenHash;
}

async function sessionsOf(userId: string): Promise<string[]> {
  const rows = await accounts.schema.query<{ token_hash: string }>(
    'SELECT token_hash FROM sessions WHERE user_id = $1 ORDER BY token_hash',
    [userId],
  );
  return rows.map((row) => row.token_hash);
}

describe('users', () => {
  it('stores a user, found by email and by id', async () => {
    const user = await storedUser();
    expect(await store.findUserByEmail(user.email)).toEqual(user);
    expect(await store.findUserById(user.id)).toEqual(user);
    expect(await store.findUserByEmail(`nobody-${user.email}`)).toBeUndefined();
    expect(await store.findUserById('usr_unknown')).toBeUndefined();
  });

  it('answers false to a second account with the same email, keeping the first', async () => {
    const first = await storedUser();
    const second = aUser({ email: first.email });
    expect(await store.createUser(second)).toBe(false);
    expect(await store.findUserByEmail(first.email)).toEqual(first);
    expect(await store.findUserById(second.id)).toBeUndefined();
  });

  it('lets exactly one of two concurrent sign-ups with one email win, the other getting false', async () => {
    const email = aUser().email;
    const contenders = [aUser({ email }), aUser({ email })];
    const results = await Promise.all(contenders.map((user) => store.createUser(user)));
    expect([...results].sort()).toEqual([false, true]);
    const winner = contenders[results.indexOf(true)]!;
    expect(await store.findUserByEmail(email)).toEqual(winner);
    expect(await accounts.schema.query('SELECT id FROM users WHERE email = $1', [email])).toHaveLength(1);
  });
});

describe('sessions', () => {
  it('finds a session with its user, extends it, marks its password typed again and deletes it', async () => {
    const user = await storedUser();
    const tokenHash = await openSession(user.id);

    expect(await store.findSession(tokenHash)).toEqual({
      tokenHash,
      userId: user.id,
      createdAt: NOW,
      expiresAt: at(HOUR),
      authenticatedAt: NOW,
      user,
    });
    await store.extendSession(tokenHash, at(12 * HOUR));
    expect(await store.findSession(tokenHash)).toMatchObject({ createdAt: NOW, expiresAt: at(12 * HOUR) });
    await store.markSessionAuthenticated(tokenHash, at(HOUR));
    expect(await store.findSession(tokenHash)).toMatchObject({ authenticatedAt: at(HOUR) });

    await store.deleteSession(tokenHash);
    expect(await store.findSession(tokenHash)).toBeUndefined();
  });

  it('finds nothing for an unknown token, and extending or deleting one is no error', async () => {
    const unknown = tokenDigest(newSecretToken());
    expect(await store.findSession(unknown)).toBeUndefined();
    // A session may end (sign-out in another tab, a reset) between the lookup and these calls.
    await expect(store.extendSession(unknown, at(HOUR))).resolves.toBeUndefined();
    await expect(store.deleteSession(unknown)).resolves.toBeUndefined();
    expect(await store.findSession(unknown)).toBeUndefined();
  });

  it('deletes only the session named, not the other sessions of the user', async () => {
    const user = await storedUser();
    const [signedOut, kept] = [await openSession(user.id), await openSession(user.id)];
    await store.deleteSession(signedOut);
    expect(await sessionsOf(user.id)).toEqual([kept]);
  });
});

describe('password resets', () => {
  it('sets the password, marks the link used and ends every session of the user, and only theirs', async () => {
    const user = await storedUser();
    const other = await storedUser();
    await Promise.all([openSession(user.id), openSession(user.id), openSession(user.id)]);
    const othersSession = await openSession(other.id);
    const tokenHash = await issueReset(user.id);

    const consumed = await store.consumePasswordReset(tokenHash, at(HOUR / 2), 'new-hash');

    expect(consumed).toEqual({ ...user, passwordHash: 'new-hash' });
    expect(await store.findUserById(user.id)).toEqual({ ...user, passwordHash: 'new-hash' });
    expect(await sessionsOf(user.id)).toEqual([]);
    expect(await sessionsOf(other.id)).toEqual([othersSession]);
    expect(await store.findUserById(other.id)).toEqual(other);
    const [reset] = await accounts.schema.query<{ used_at: Date | null }>(
      'SELECT used_at FROM password_resets WHERE token_hash = $1',
      [tokenHash],
    );
    expect(reset!.used_at).toEqual(at(HOUR / 2));
  });

  it('refuses a used link, leaving the password set by its first use and later sessions alone', async () => {
    const user = await storedUser();
    const tokenHash = await issueReset(user.id);
    expect(await store.consumePasswordReset(tokenHash, NOW, 'first-hash')).toBeDefined();
    const sessionAfterReset = await openSession(user.id);

    expect(await store.consumePasswordReset(tokenHash, at(1_000), 'second-hash')).toBeUndefined();
    expect(await store.findPasswordReset(tokenHash, at(1_000))).toBeUndefined();
    expect((await store.findUserById(user.id))!.passwordHash).toBe('first-hash');
    expect(await sessionsOf(user.id)).toEqual([sessionAfterReset]);
  });

  it('lets only one of two concurrent submissions of one link set the password', async () => {
    const user = await storedUser();
    const tokenHash = await issueReset(user.id);
    const results = await Promise.all([
      store.consumePasswordReset(tokenHash, NOW, 'hash-a'),
      store.consumePasswordReset(tokenHash, NOW, 'hash-b'),
    ]);
    const winners = results.filter((result) => result !== undefined);
    expect(winners).toHaveLength(1);
    expect((await store.findUserById(user.id))!.passwordHash).toBe(winners[0]!.passwordHash);
  });

  it('refuses an expired link from its expiry on, and an unknown one, changing nothing', async () => {
    const user = await storedUser();
    const session = await openSession(user.id, at(2 * HOUR));
    const tokenHash = await issueReset(user.id, at(HOUR));

    expect(await store.findPasswordReset(tokenHash, at(HOUR))).toBeUndefined();
    expect(await store.consumePasswordReset(tokenHash, at(HOUR), 'late-hash')).toBeUndefined();
    const unknown = tokenDigest(newSecretToken());
    expect(await store.findPasswordReset(unknown, NOW)).toBeUndefined();
    expect(await store.consumePasswordReset(unknown, NOW, 'unknown-hash')).toBeUndefined();

    expect(await store.findUserById(user.id)).toEqual(user);
    expect(await sessionsOf(user.id)).toEqual([session]);
    const [reset] = await accounts.schema.query<{ used_at: Date | null }>(
      'SELECT used_at FROM password_resets WHERE token_hash = $1',
      [tokenHash],
    );
    expect(reset!.used_at).toBeNull();
    // A millisecond before its expiry the same link still works.
    expect(await store.consumePasswordReset(tokenHash, at(HOUR - 1), 'in-time-hash')).toMatchObject({
      id: user.id,
    });
  });

  it('shows the user of a usable link without using it', async () => {
    const user = await storedUser();
    await openSession(user.id);
    const tokenHash = await issueReset(user.id);

    expect(await store.findPasswordReset(tokenHash, NOW)).toEqual(user);
    expect(await store.findPasswordReset(tokenHash, at(1_000))).toEqual(user);
    expect(await sessionsOf(user.id)).toHaveLength(1);
    expect(await store.findUserById(user.id)).toEqual(user);
    expect(await store.consumePasswordReset(tokenHash, at(2_000), 'new-hash')).toBeDefined();
  });
});
