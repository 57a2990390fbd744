import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stateless bearer tokens: `<base64url claims>.<base64url HMAC-SHA256>` under a key derived from the client
 * secret. Nothing is stored, so tokens stay valid across restarts and replicas, and renewing the secret
 * revokes every token at once.
 */
export interface TokenClaims {
  clientId: string;
  scopes: readonly string[];
  /** Expiry, in milliseconds since the epoch. */
  expiresAt: number;
}

interface EncodedClaims {
  sub: string;
  scope: string;
  exp: number;
}

function signingKey(clientSecret: string): Buffer {
  return createHmac('sha256', clientSecret).update('pispi-simulator access token').digest();
}

function mac(payload: string, clientSecret: string): Buffer {
  return createHmac('sha256', signingKey(clientSecret)).update(payload).digest();
}

export function issueAccessToken(claims: TokenClaims, clientSecret: string): string {
  const encoded: EncodedClaims = {
    sub: claims.clientId,
    scope: claims.scopes.join(' '),
    exp: claims.expiresAt,
  };
  const payload = Buffer.from(JSON.stringify(encoded)).toString('base64url');
  return `${payload}.${mac(payload, clientSecret).toString('base64url')}`;
}

/** The claims of a token made with this secret and not expired at `now`; undefined otherwise. */
export function verifyAccessToken(token: string, clientSecret: string, now: Date): TokenClaims | undefined {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(payload, clientSecret);
  const received = Buffer.from(signature, 'base64url');
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return undefined;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as EncodedClaims;
  if (claims.exp <= now.getTime()) return undefined;
  return { clientId: claims.sub, scopes: claims.scope.split(' ').filter(Boolean), expiresAt: claims.exp };
}
