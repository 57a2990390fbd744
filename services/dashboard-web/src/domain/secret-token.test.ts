import { newSecretToken, sameToken, tokenDigest } from './secret-token';

describe('secret tokens (sessions, CSRF, reset links)', () => {
  it('are 256 random bits in base64url, never twice the same', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newSecretToken()));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('are stored as their SHA-256 only', () => {
    const token = newSecretToken();
    expect(tokenDigest(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenDigest(token)).not.toContain(token);
  });

  it('match only the very same token: a CSRF field that is absent, empty, other or not text fails', () => {
    const token = newSecretToken();
    expect(sameToken(token, token)).toBe(true);
    expect(sameToken(token, `${token}x`)).toBe(false);
    expect(sameToken(token, newSecretToken())).toBe(false);
    expect(sameToken(token, undefined)).toBe(false);
    expect(sameToken(token, [token])).toBe(false);
    expect(sameToken('', '')).toBe(false);
    expect(sameToken(undefined, token)).toBe(false);
  });
});
