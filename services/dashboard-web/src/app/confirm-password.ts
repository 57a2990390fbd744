import { AppError, type Clock } from '@sika/platform';

import { tokenDigest } from '../domain/secret-token';
import type { PasswordCheck, PasswordCheckResult } from './password-check';
import type { AccountStore, UserRecord } from './ports';

/**
 * The password typed again in a signed-in session, before an action that could redirect money: when it is the
 * account's, the session counts as recently authenticated from now. Wrong passwords count toward the sign-in
 * limits, so a stolen cookie cannot guess it either.
 */
export class ConfirmPassword {
  constructor(
    private readonly dependencies: { store: AccountStore; passwordCheck: PasswordCheck; clock: Clock },
  ) {}

  async execute(input: {
    sessionToken: string;
    user: UserRecord;
    password: string;
    address: string;
  }): Promise<Exclude<PasswordCheckResult, { outcome: 'matched' }> | { outcome: 'confirmed' }> {
    const { store, passwordCheck, clock } = this.dependencies;
    if (input.password.length === 0) {
      throw new AppError('parameter_missing', 'Enter your password.', { param: 'password' });
    }
    const check = await passwordCheck.execute(input.user.email, input.password, input.address);
    // The account's own password only: a matching password of another account proves nothing here.
    if (check.outcome === 'matched' && check.user.id !== input.user.id) return { outcome: 'refused' };
    if (check.outcome !== 'matched') return check;
    await store.markSessionAuthenticated(tokenDigest(input.sessionToken), clock.now());
    return { outcome: 'confirmed' };
  }
}
