import type { AccountStore, PasswordHasher, SignInGuard, UserRecord } from './ports';

export type PasswordCheckResult =
  | { outcome: 'matched'; user: UserRecord }
  | { outcome: 'refused' }
  | { outcome: 'limited'; retryAfterSeconds: number };

/**
 * A password typed for an account, checked under the sign-in limits, every attempt counted: at sign-in and when
 * a signed-in page asks for it again. An unknown address costs the same hash verification as a known one
 * (against a hash of nothing anyone knows), so timing does not tell which addresses have accounts; both count as
 * failures alike. A match starts the account again from no attempts.
 */
export class PasswordCheck {
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly dependencies: { store: AccountStore; hasher: PasswordHasher; guard: SignInGuard },
  ) {}

  async execute(email: string, password: string, address: string): Promise<PasswordCheckResult> {
    const { store, hasher, guard } = this.dependencies;
    // Counted before the password is checked, so that concurrent attempts cannot all pass the limit.
    const admission = await guard.admit(email, address);
    if (admission.kind === 'limited')
      return { outcome: 'limited', retryAfterSeconds: admission.retryAfterSeconds };
    const user = await store.findUserByEmail(email);
    this.decoyHash ??= hasher.hash(`decoy-${Math.random()}`);
    const matches = await hasher.verify(user?.passwordHash ?? (await this.decoyHash), password);
    if (user === undefined || !matches) return { outcome: 'refused' };
    await guard.forgetAccount(email);
    return { outcome: 'matched', user };
  }
}
