import { generateWebhookSecret, signingSecrets, WEBHOOK_SECRET_PATTERN } from './webhook-secret';

describe('generateWebhookSecret', () => {
  it('makes whsec_ and 32 base62 characters, different every time', () => {
    const secrets = Array.from({ length: 50 }, () => generateWebhookSecret());
    for (const secret of secrets) expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(new Set(secrets).size).toBe(50);
    expect(secrets[0]).toMatch(WEBHOOK_SECRET_PATTERN);
  });

  it('drops the bytes that would bias the alphabet', () => {
    let calls = 0;
    // First a buffer of only biased bytes (all dropped), then zeros, which map to '0'.
    const random = (size: number) => Buffer.alloc(size, calls++ === 0 ? 255 : 0);
    expect(generateWebhookSecret(random)).toBe(`whsec_${'0'.repeat(32)}`);
    expect(calls).toBe(2);
  });
});

describe('signingSecrets', () => {
  const expiresAt = new Date('2026-03-01T10:00:00.000Z');
  const previous = { secret: 'whsec_old', expiresAt };

  it('signs with the current secret, then the previous one until it expires', () => {
    expect(signingSecrets('whsec_new', previous, new Date(expiresAt.getTime() - 1))).toEqual([
      'whsec_new',
      'whsec_old',
    ]);
    expect(signingSecrets('whsec_new', previous, expiresAt)).toEqual(['whsec_new']);
    expect(signingSecrets('whsec_new', null, new Date(0))).toEqual(['whsec_new']);
  });
});
