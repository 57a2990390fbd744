import type { AccountStore, SessionRecord, UserRecord } from '../app/ports';
import type { Database } from './database';

const UNIQUE_VIOLATION = 'P2002';

export class PrismaAccountStore implements AccountStore {
  constructor(private readonly db: Database) {}

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    return (await this.db.user.findUnique({ where: { email } })) ?? undefined;
  }

  async findUserById(id: string): Promise<UserRecord | undefined> {
    return (await this.db.user.findUnique({ where: { id } })) ?? undefined;
  }

  async createUser(user: UserRecord): Promise<boolean> {
    try {
      await this.db.user.create({ data: user });
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return false;
      throw error;
    }
  }

  async createSession(session: SessionRecord): Promise<void> {
    await this.db.session.create({ data: session });
  }

  async findSession(tokenHash: string): Promise<(SessionRecord & { user: UserRecord }) | undefined> {
    return (await this.db.session.findUnique({ where: { tokenHash }, include: { user: true } })) ?? undefined;
  }

  async extendSession(tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.session.updateMany({ where: { tokenHash }, data: { expiresAt } });
  }

  async markSessionAuthenticated(tokenHash: string, at: Date): Promise<void> {
    await this.db.session.updateMany({ where: { tokenHash }, data: { authenticatedAt: at } });
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.session.deleteMany({ where: { tokenHash } });
  }

  async createPasswordReset(reset: {
    tokenHash: string;
    userId: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.passwordReset.create({ data: reset });
  }

  async findPasswordReset(tokenHash: string, now: Date): Promise<UserRecord | undefined> {
    const reset = await this.db.passwordReset.findFirst({
      where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
      include: { user: true },
    });
    return reset?.user;
  }

  async consumePasswordReset(
    tokenHash: string,
    now: Date,
    passwordHash: string,
  ): Promise<UserRecord | undefined> {
    return this.db.$transaction(async (tx) => {
      // The conditional update is the claim: of two submissions of one link, only one changes a row.
      const claimed = await tx.passwordReset.updateMany({
        where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      if (claimed.count === 0) return undefined;
      const { userId } = await tx.passwordReset.findUniqueOrThrow({ where: { tokenHash } });
      const user = await tx.user.update({ where: { id: userId }, data: { passwordHash } });
      await tx.session.deleteMany({ where: { userId } });
      return user;
    });
  }
}
