import { randomBytes } from 'node:crypto';
import { parseSecretKey, SecretBox, secretKeyVar } from './secret-box';

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv';

/** Sealed by webhook-dispatcher's box as it was before key ids (format v1), under a key of 32 bytes 0x07. */
const LEGACY_SEALED =
  'v1.BumcWy/rxUUBJuHr.IuIMOUOGfB/AlKxU+huing==.92jnFyKtY6InGS7q38bRZt6ouSTAybNeRdawr57p/uKC05tnwG4=';
const LEGACY_CONTEXT = 'whe_legacy000000000000000001';
const LEGACY_SECRET = 'whsec_LegacyLegacyLegacyLegacyLegacy01';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and the sealed text does not contain the secret', () => {
    const sealed = box.seal(SECRET, 'whe_1');
    expect(sealed).toMatch(/^v2\.[A-Za-z0-9_-]{11}\./);
    expect(sealed).not.toContain(SECRET.slice(6));
    expect(box.open(sealed, 'whe_1')).toBe(SECRET);
    expect(box.seal(SECRET, 'whe_1')).not.toBe(sealed);
  });

  it('names the key by an id that does not depend on the box, and differs between keys', () => {
    const key = randomBytes(32);
    const idOf = (sealed: string) => sealed.split('.')[1];
    expect(idOf(new SecretBox(key).seal(SECRET, 'c'))).toBe(idOf(new SecretBox(key).seal('other', 'd')));
    expect(idOf(new SecretBox(key).seal(SECRET, 'c'))).not.toBe(idOf(box.seal(SECRET, 'c')));
  });

  it('refuses another context, another key, or an altered ciphertext', () => {
    const sealed = box.seal(SECRET, 'whe_1');
    expect(() => box.open(sealed, 'whe_2')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'whe_1')).toThrow();
    const [version, keyId, iv, tag, ciphertext] = sealed.split('.') as [
      string,
      string,
      string,
      string,
      string,
    ];
    const flipped = Buffer.from(ciphertext, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() =>
      box.open([version, keyId, iv, tag, flipped.toString('base64')].join('.'), 'whe_1'),
    ).toThrow();
    expect(() => box.open('plain', 'whe_1')).toThrow('not a sealed secret');
  });

  it('opens with a previous key what that key sealed, and seals with the current one only', () => {
    const oldKey = randomBytes(32);
    const sealedBefore = new SecretBox(oldKey).seal(SECRET, 'whe_1');
    const rotated = new SecretBox(randomBytes(32), [oldKey]);
    expect(rotated.open(sealedBefore, 'whe_1')).toBe(SECRET);
    expect(rotated.isCurrent(sealedBefore)).toBe(false);
    const resealed = rotated.seal(rotated.open(sealedBefore, 'whe_1'), 'whe_1');
    expect(rotated.isCurrent(resealed)).toBe(true);
    expect(() => new SecretBox(oldKey).open(resealed, 'whe_1')).toThrow(
      'sealed with a key that is not configured',
    );
  });

  it('opens a secret sealed before key ids existed (v1) with whichever configured key sealed it', () => {
    const legacyKey = Buffer.alloc(32, 7);
    const rotated = new SecretBox(randomBytes(32), [randomBytes(32), legacyKey]);
    expect(rotated.open(LEGACY_SEALED, LEGACY_CONTEXT)).toBe(LEGACY_SECRET);
    expect(rotated.isCurrent(LEGACY_SEALED)).toBe(false);
    expect(() => new SecretBox(randomBytes(32)).open(LEGACY_SEALED, LEGACY_CONTEXT)).toThrow();
    expect(() => new SecretBox(legacyKey).open(LEGACY_SEALED, 'whe_other')).toThrow();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow('32 bytes');
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

describe('secretKeyVar', () => {
  const [first, second] = [randomBytes(32), randomBytes(32)];

  it('parses the current key, and refuses anything else without echoing it', () => {
    expect(secretKeyVar.current().parse(first.toString('base64'))).toEqual(first);
    const result = secretKeyVar.current().safeParse('too-short');
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'expected 32 bytes as 64 hex characters or base64',
    ]);
  });

  it('parses previous keys separated by commas, none when absent, and names a bad entry by its position', () => {
    expect(secretKeyVar.previous().parse(undefined)).toEqual([]);
    expect(secretKeyVar.previous().parse(`${first.toString('hex')}, ${second.toString('base64')}`)).toEqual([
      first,
      second,
    ]);
    const result = secretKeyVar.previous().safeParse(`${first.toString('hex')},nope`);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'entry 2: expected 32 bytes as 64 hex characters or base64',
    ]);
  });
});
