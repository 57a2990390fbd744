import { AppError, type Clock } from '@sika/platform';

import { normalizeEmail } from '../domain/credentials';
import { newSecretToken, tokenDigest } from '../domain/secret-token';
import type { AccountStore } from './ports';

/**
 * An operator's answer to "I forgot my password" (there is no mail server): a link valid once, for
 * `validityMs`, which the operator sends to the merchant after checking who is asking.
 */
export class IssuePasswordReset {
  constructor(
    private readonly dependencies: {
      store: AccountStore;
      clock: Clock;
      publicUrl: string;
      validityMs: number;
    },
  ) {}

  async execute(emailInput: string): Promise<{ url: string; expiresAt: Date }> {
    const { store, clock, publicUrl, validityMs } = this.dependencies;
    const user = await store.findUserByEmail(normalizeEmail(emailInput));
    if (user === undefined) {
      throw new AppError('resource_missing', 'No dashboard account uses this email address.', {
        param: 'email',
      });
    }
    const token = newSecretToken();
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + validityMs);
    await store.createPasswordReset({
      tokenHash: tokenDigest(token),
      userId: user.id,
      createdAt: now,
      expiresAt,
    });
    return { url: new URL(`/reset/${token}`, publicUrl).toString(), expiresAt };
  }
}
