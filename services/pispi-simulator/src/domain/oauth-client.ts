import { createHash, timingSafeEqual } from 'node:crypto';

/** The one OAuth2 client the simulator knows (the simulator's configuration). */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  tokenTtlMs: number;
}

/** Compares a presented credential with the configured one in constant time (hashed to equal lengths). */
export function constantTimeEquals(presented: string, expected: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
