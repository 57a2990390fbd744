import { AppError, type Clock } from '@sika/platform';

import { checkNewPassword } from '../domain/credentials';
import { tokenDigest } from '../domain/secret-token';
import type { SessionLifetime } from '../domain/session-lifetime';
import type { AccountStore, PasswordHasher } from './ports';
import { openSession } from './sessions';

const linkInvalid = () =>
  new AppError('resource_missing', 'This reset link is unknown, already used or expired.', {
    param: 'token',
  });

/** A reset link: shown if still usable; used once to set a new password, ending every other session. */
export class ResetPassword {
  constructor(
    private readonly dependencies: {
      store: AccountStore;
      hasher: PasswordHasher;
      clock: Clock;
      lifetime: SessionLifetime;
    },
  ) {}

  async check(token: string): Promise<{ email: string }> {
    const user = await this.dependencies.store.findPasswordReset(
      tokenDigest(token),
      this.dependencies.clock.now(),
    );
    if (user === undefined) throw linkInvalid();
    return { email: user.email };
  }

  async execute(token: string, newPassword: string): Promise<{ sessionToken: string }> {
    const { store, hasher, clock } = this.dependencies;
    const passwordHash = await hasher.hash(checkNewPassword(newPassword));
    const user = await store.consumePasswordReset(tokenDigest(token), clock.now(), passwordHash);
    if (user === undefined) throw linkInvalid();
    const { token: sessionToken } = await openSession(this.dependencies, user.id);
    return { sessionToken };
  }
}
