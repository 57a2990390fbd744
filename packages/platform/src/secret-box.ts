import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** `v2.<key id>.<iv>.<tag>.<ciphertext>`: what this box seals. */
const VERSION = 'v2';
/** `v1.<iv>.<tag>.<ciphertext>`: sealed before key rotation, by a key it does not name. Still opened. */
const LEGACY_VERSION = 'v1';
/**
 * The label key ids are derived with. It says "webhook" because webhook-dispatcher's box named its keys this
 * way first: another label would give every key another id, and what it sealed could no longer be found.
 */
const KEY_ID_LABEL = 'sika webhook secret key id';
const KEY_FORMAT = 'expected 32 bytes as 64 hex characters or base64';

/**
 * A master key: 32 bytes written as 64 hex characters or as base64 (standard or URL-safe), e.g.
 * `openssl rand -base64 32`. Undefined for anything else.
 */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

/** Zod building blocks of the key variables of a SecretBox, beside `envVar` (the values are never echoed). */
export const secretKeyVar = {
  /** The key that seals. */
  current: () =>
    z.string().transform((text, context) => {
      const key = parseSecretKey(text);
      if (key === undefined) {
        context.addIssue({ code: 'custom', message: KEY_FORMAT });
        return z.NEVER;
      }
      return key;
    }),
  /** The keys it replaced, comma-separated: still read, never written; empty when absent. */
  previous: () =>
    z
      .string()
      .default('')
      .transform((text, context) => {
        const keys: Buffer[] = [];
        for (const [index, part] of text.split(',').entries()) {
          if (part.trim() === '') continue;
          const key = parseSecretKey(part);
          if (key === undefined) {
            context.addIssue({ code: 'custom', message: `entry ${index + 1}: ${KEY_FORMAT}` });
            return z.NEVER;
          }
          keys.push(key);
        }
        return keys;
      }),
};

/**
 * Names a key in what it sealed without revealing it: a truncated HMAC of a fixed label under the key, so
 * operators never have to name keys and two keys never share an id by mistake.
 */
function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update(KEY_ID_LABEL).digest('base64url').slice(0, 11);
}

interface Key {
  id: string;
  bytes: Buffer;
}

/**
 * Encrypts secrets at rest (AES-256-GCM). Each value is bound to a context (e.g. the id of the row holding
 * it) as additional authenticated data: a ciphertext copied onto another row does not decrypt. Seals with the
 * current key and names it in the value (`v2.<key id>.<base64 iv>.<base64 tag>.<base64 ciphertext>`); opens
 * with any key it was given, so that a new key can be rolled out while the previous ones still read what they
 * sealed. Values sealed before key ids existed (`v1.…`) are opened by trying each key: GCM's tag tells the
 * right one.
 */
export class SecretBox {
  private readonly current: Key;
  private readonly keys: Key[];

  constructor(currentKey: Buffer, previousKeys: readonly Buffer[] = []) {
    this.keys = [currentKey, ...previousKeys].map((key) => {
      if (key.length !== KEY_BYTES)
        throw new Error(`a secret box key has ${KEY_BYTES} bytes, not ${key.length}`);
      return { id: keyIdOf(key), bytes: Buffer.from(key) };
    });
    this.current = this.keys[0]!;
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.current.bytes, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const encoded = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64'));
    return [VERSION, this.current.id, ...encoded].join('.');
  }

  /** Throws when the value was not sealed with one of this box's keys and this context, or was altered. */
  open(sealed: string, context: string): string {
    const { keyId, iv, tag, ciphertext } = parse(sealed);
    const candidates = keyId === undefined ? this.keys : this.keys.filter((key) => key.id === keyId);
    if (candidates.length === 0) throw new Error('sealed with a key that is not configured');
    let failure: unknown;
    for (const key of candidates) {
      try {
        return decrypt(key.bytes, { iv, tag, ciphertext }, context);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }

  /** Whether the value is already sealed with the current key in the current format: nothing to reseal. */
  isCurrent(sealed: string): boolean {
    const [version, keyId] = sealed.split('.');
    return version === VERSION && keyId === this.current.id;
  }
}

function parse(sealed: string): { keyId: string | undefined; iv: string; tag: string; ciphertext: string } {
  const parts = sealed.split('.');
  const [version] = parts;
  if (version === VERSION && parts.length === 5) {
    const [, keyId, iv, tag, ciphertext] = parts as [string, string, string, string, string];
    return { keyId, iv, tag, ciphertext };
  }
  if (version === LEGACY_VERSION && parts.length === 4) {
    const [, iv, tag, ciphertext] = parts as [string, string, string, string];
    return { keyId: undefined, iv, tag, ciphertext };
  }
  throw new Error('not a sealed secret');
}

function decrypt(
  key: Buffer,
  sealed: { iv: string; tag: string; ciphertext: string },
  context: string,
): string {
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(sealed.iv, 'base64'), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([
    decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
    decipher.final(),
  ]).toString('utf8');
}
