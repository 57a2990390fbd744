import { randomBytes } from 'node:crypto';
import { parseSecretKey, SecretBox } from './secret-box';

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and the sealed text does not contain the secret', () => {
    const sealed = box.seal(SECRET, 'whe_1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(SECRET.slice(6));
    expect(box.open(sealed, 'whe_1')).toBe(SECRET);
    expect(box.seal(SECRET, 'whe_1')).not.toBe(sealed);
  });

  it('refuses another context, another key, or an altered ciphertext', () => {
    const sealed = box.seal(SECRET, 'whe_1');
    expect(() => box.open(sealed, 'whe_2')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'whe_1')).toThrow();
    const [version, iv, tag, ciphertext] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => box.open([version, iv, tag, flipped.toString('base64')].join('.'), 'whe_1')).toThrow();
    expect(() => box.open('plain', 'whe_1')).toThrow('not a sealed secret');
  });
});

describe('parseSecretKey', () => {
  const key = randomBytes(32);

  it('reads 32 bytes as hex, base64 or base64url', () => {
    expect(parseSecretKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretKey(key.toString('base64url'))).toEqual(key);
  });

  it('refuses any other length or alphabet', () => {
    expect(parseSecretKey(randomBytes(16).toString('base64'))).toBeUndefined();
    expect(parseSecretKey(randomBytes(33).toString('hex'))).toBeUndefined();
    expect(parseSecretKey('not a key at all, not a key at all, not a key!')).toBeUndefined();
  });
});
