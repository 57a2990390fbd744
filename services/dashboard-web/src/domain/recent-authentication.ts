/**
 * How long after its owner last typed the password a session may redirect money (payout account, keys, webhook
 * secret) without typing it again: a stolen cookie alone cannot, as in GitHub's and Stripe's "sudo mode".
 */
export const RECENT_AUTHENTICATION_MS = 5 * 60_000;

/** Whether a session whose password was last typed at `authenticatedAt` (null: never) may act at `now`. */
export function authenticatedRecently(authenticatedAt: Date | null, now: Date): boolean {
  return authenticatedAt !== null && now.getTime() - authenticatedAt.getTime() < RECENT_AUTHENTICATION_MS;
}
