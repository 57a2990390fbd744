import type { Clock } from '@sika/platform';

import { authenticatedRecently } from '../domain/recent-authentication';
import { tokenDigest } from '../domain/secret-token';
import { expiryWorthExtending, sessionExpiry, type SessionLifetime } from '../domain/session-lifetime';
import type { AccountStore, UserRecord } from './ports';

/** A live session: its user, and whether its password was typed recently enough to redirect money. */
export interface SignedInSession {
  user: UserRecord;
  recentlyAuthenticated: boolean;
}

/** Who a session cookie belongs to, if anyone: an unknown or expired token is no session. */
export class CurrentSession {
  constructor(
    private readonly dependencies: { store: AccountStore; clock: Clock; lifetime: SessionLifetime },
  ) {}

  async execute(token: string | undefined): Promise<SignedInSession | undefined> {
    if (token === undefined || token.length === 0) return undefined;
    const { store, clock, lifetime } = this.dependencies;
    const tokenHash = tokenDigest(token);
    const session = await store.findSession(tokenHash);
    const now = clock.now();
    if (session === undefined || session.expiresAt <= now) return undefined;
    const next = sessionExpiry(session.createdAt, now, lifetime);
    if (expiryWorthExtending(session.expiresAt, next)) await store.extendSession(tokenHash, next);
    return {
      user: session.user,
      recentlyAuthenticated: authenticatedRecently(session.authenticatedAt, now),
    };
  }
}
