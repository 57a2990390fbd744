import { issueAccessToken, verifyAccessToken } from './access-token';

const now = new Date('2026-01-01T00:00:00Z');
const claims = { clientId: 'sika', scopes: ['demande_paiement.write'], expiresAt: now.getTime() + 60_000 };

describe('access tokens', () => {
  it('verify with the secret that issued them until they expire', () => {
    const token = issueAccessToken(claims, 'secret');
    expect(verifyAccessToken(token, 'secret', now)).toEqual(claims);
    expect(verifyAccessToken(token, 'secret', new Date(claims.expiresAt))).toBeUndefined();
  });

  it('do not verify under another secret, or once altered', () => {
    const token = issueAccessToken(claims, 'secret');
    expect(verifyAccessToken(token, 'other', now)).toBeUndefined();
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'sika', scope: 'x', exp: 9e15 })).toString('base64url');
    expect(verifyAccessToken(`${forged}.${signature}`, 'secret', now)).toBeUndefined();
    expect(verifyAccessToken(`${payload}`, 'secret', now)).toBeUndefined();
    expect(verifyAccessToken(`${token}.x`, 'secret', now)).toBeUndefined();
  });
});
