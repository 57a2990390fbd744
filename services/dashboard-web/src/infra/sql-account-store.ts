import type { Insertable, Selectable } from 'kysely';

import type { AccountStore, SessionRecord, UserRecord } from '../app/ports';
import type { User } from '../generated/database';
import type { DashboardDatabase } from './database';

/** Postgres's unique_violation: here, an email already taken. */
const UNIQUE_VIOLATION = '23505';

const USER_COLUMNS = [
  'users.id',
  'users.merchant_id',
  'users.email',
  'users.password_hash',
  'users.created_at',
] as const;

function toUser(row: Selectable<User>): UserRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    email: row.email,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
  };
}

function userRow(user: UserRecord): Insertable<User> {
  return {
    id: user.id,
    merchant_id: user.merchantId,
    email: user.email,
    password_hash: user.passwordHash,
    created_at: user.createdAt,
  };
}

export class SqlAccountStore implements AccountStore {
  constructor(private readonly db: DashboardDatabase) {}

  findUserByEmail(email: string): Promise<UserRecord | undefined> {
    return this.findUser('email', email);
  }

  findUserById(id: string): Promise<UserRecord | undefined> {
    return this.findUser('id', id);
  }

  async createUser(user: UserRecord): Promise<boolean> {
    try {
      await this.db.insertInto('users').values(userRow(user)).execute();
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return false;
      throw error;
    }
  }

  async createSession(session: SessionRecord): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: session.tokenHash,
        user_id: session.userId,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
        authenticated_at: session.authenticatedAt,
      })
      .execute();
  }

  async findSession(tokenHash: string): Promise<(SessionRecord & { user: UserRecord }) | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(USER_COLUMNS)
      .select([
        'sessions.token_hash',
        'sessions.user_id',
        'sessions.created_at as session_created_at',
        'sessions.expires_at',
        'sessions.authenticated_at',
      ])
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
    return (
      row && {
        tokenHash: row.token_hash,
        userId: row.user_id,
        createdAt: row.session_created_at,
        expiresAt: row.expires_at,
        authenticatedAt: row.authenticated_at,
        user: toUser(row),
      }
    );
  }

  async extendSession(tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ expires_at: expiresAt })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  async markSessionAuthenticated(tokenHash: string, at: Date): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ authenticated_at: at })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  async createPasswordReset(reset: {
    tokenHash: string;
    userId: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto('password_resets')
      .values({
        token_hash: reset.tokenHash,
        user_id: reset.userId,
        created_at: reset.createdAt,
        expires_at: reset.expiresAt,
      })
      .execute();
  }

  async findPasswordReset(tokenHash: string, now: Date): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select(USER_COLUMNS)
      .where('password_resets.token_hash', '=', tokenHash)
      .where('password_resets.used_at', 'is', null)
      .where('password_resets.expires_at', '>', now)
      .executeTakeFirst();
    return row && toUser(row);
  }

  async consumePasswordReset(
    tokenHash: string,
    now: Date,
    passwordHash: string,
  ): Promise<UserRecord | undefined> {
    return this.db.transact(async (tx) => {
      // The conditional update is the claim: of two submissions of one link, only one changes a row.
      const claimed = await tx
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
      if (claimed === undefined) return undefined;
      const user = await tx
        .updateTable('users')
        .set({ password_hash: passwordHash })
        .where('id', '=', claimed.user_id)
        .returning(USER_COLUMNS)
        .executeTakeFirstOrThrow();
      await tx.deleteFrom('sessions').where('user_id', '=', claimed.user_id).execute();
      return toUser(user);
    });
  }

  private async findUser(column: 'email' | 'id', value: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where(column, '=', value)
      .executeTakeFirst();
    return row && toUser(row);
  }
}
