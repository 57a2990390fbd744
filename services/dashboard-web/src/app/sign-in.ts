import { AppError, type Clock } from '@sika/platform';

import { normalizeEmail } from '../domain/credentials';
import type { SessionLifetime } from '../domain/session-lifetime';
import type { PasswordCheck } from './password-check';
import type { AccountStore } from './ports';
import { openSession } from './sessions';

export type SignInResult =
  | { outcome: 'signed_in'; sessionToken: string }
  | { outcome: 'refused' }
  | { outcome: 'limited'; retryAfterSeconds: number };

/** Opens a session for the right email address and password, under the per-account and per-address limits. */
export class SignIn {
  constructor(
    private readonly dependencies: {
      store: AccountStore;
      passwordCheck: PasswordCheck;
      clock: Clock;
      lifetime: SessionLifetime;
    },
  ) {}

  async execute(input: { email: string; password: string; address: string }): Promise<SignInResult> {
    const email = normalizeEmail(input.email);
    if (email.length === 0 || input.password.length === 0) {
      throw new AppError('parameter_missing', 'Enter your email address and password.', {
        param: email.length === 0 ? 'email' : 'password',
      });
    }
    const check = await this.dependencies.passwordCheck.execute(email, input.password, input.address);
    if (check.outcome !== 'matched') return check;
    const { token } = await openSession(this.dependencies, check.user.id);
    return { outcome: 'signed_in', sessionToken: token };
  }
}
