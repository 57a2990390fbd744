import type { Clock } from '@sika/platform';

import { newSecretToken, tokenDigest } from '../domain/secret-token';
import { sessionExpiry, type SessionLifetime } from '../domain/session-lifetime';
import type { AccountStore } from './ports';

/** A new session's cookie value: the store keeps only its digest. */
export async function openSession(
  { store, clock, lifetime }: { store: AccountStore; clock: Clock; lifetime: SessionLifetime },
  userId: string,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecretToken();
  const now = clock.now();
  const expiresAt = sessionExpiry(now, now, lifetime);
  await store.createSession({
    tokenHash: tokenDigest(token),
    userId,
    createdAt: now,
    expiresAt,
    authenticatedAt: now,
  });
  return { token, expiresAt };
}
