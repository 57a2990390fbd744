import { AppError, type Clock } from '@sika/platform';

import { normalizeEmail } from '../domain/credentials';
import type { SessionLifetime } from '../domain/session-lifetime';
import type { AccountStore, PasswordHasher, SignInGuard } from './ports';
import { openSession } from './sessions';

export type SignInResult =
  | { outcome: 'signed_in'; sessionToken: string }
  | { outcome: 'refused' }
  | { outcome: 'limited'; retryAfterSeconds: number };

/**
 * Checks a password under the per-account and per-address limits, every attempt counted. An unknown address costs the same hash
 * verification as a known one (against a hash of nothing anyone knows), so timing does not tell which
 * addresses have accounts; both count as failures alike.
 */
export class SignIn {
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly dependencies: {
      store: AccountStore;
      hasher: PasswordHasher;
      guard: SignInGuard;
      clock: Clock;
      lifetime: SessionLifetime;
    },
  ) {}

  async execute(input: { email: string; password: string; address: string }): Promise<SignInResult> {
    const { store, hasher, guard } = this.dependencies;
    const email = normalizeEmail(input.email);
    if (email.length === 0 || input.password.length === 0) {
      throw new AppError('parameter_missing', 'Enter your email address and password.', {
        param: email.length === 0 ? 'email' : 'password',
      });
    }
    // Counted before the password is checked, so that concurrent attempts cannot all pass the limit.
    const admission = await guard.admit(email, input.address);
    if (admission.kind === 'limited')
      return { outcome: 'limited', retryAfterSeconds: admission.retryAfterSeconds };
    const user = await store.findUserByEmail(email);
    this.decoyHash ??= hasher.hash(`decoy-${Math.random()}`);
    const matches = await hasher.verify(user?.passwordHash ?? (await this.decoyHash), input.password);
    if (user === undefined || !matches) return { outcome: 'refused' };
    await guard.forgetAccount(email);
    const { token } = await openSession(this.dependencies, user.id);
    return { outcome: 'signed_in', sessionToken: token };
  }
}
