import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Names the format, so that a later key rotation can tell old ciphertexts from new ones. */
const VERSION = 'v1';

/**
 * The master key of WEBHOOK_SECRET_KEY: 32 bytes written as 64 hex characters or as base64 (standard or
 * URL-safe). Undefined for anything else.
 */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

/**
 * Encrypts webhook secrets at rest (AES-256-GCM). Each value is bound to a context, the endpoint id, as
 * additional authenticated data: a ciphertext copied onto another row does not decrypt. Stored as
 * `v1.<base64 iv>.<base64 tag>.<base64 ciphertext>`.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES)
      throw new Error(`a secret box key has ${KEY_BYTES} bytes, not ${key.length}`);
    this.key = Buffer.from(key);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64')))
      .join('.');
  }

  /** Throws when the value was not sealed with this key and context, or was altered. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
    if (
      version !== VERSION ||
      iv === undefined ||
      tag === undefined ||
      ciphertext === undefined ||
      rest.length > 0
    ) {
      throw new Error('not a sealed secret');
    }
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(iv, 'base64'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  }
}
