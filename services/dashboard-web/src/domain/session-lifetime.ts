/**
 * How long a session lasts: `idleMs` after its last use, and never longer than `absoluteMs` after the sign-in,
 * so a forgotten tab on a shared computer signs itself out, and a stolen cookie does not live for ever.
 */
export interface SessionLifetime {
  idleMs: number;
  absoluteMs: number;
}

/** The expiry of a session used at `now`. */
export function sessionExpiry(createdAt: Date, now: Date, lifetime: SessionLifetime): Date {
  return new Date(Math.min(now.getTime() + lifetime.idleMs, createdAt.getTime() + lifetime.absoluteMs));
}

/**
 * Whether a use at `now` should move the stored expiry: only once a minute's worth has passed, so that
 * every page view is not also a database write.
 */
export function expiryWorthExtending(storedExpiry: Date, nextExpiry: Date): boolean {
  return nextExpiry.getTime() - storedExpiry.getTime() >= 60_000;
}
