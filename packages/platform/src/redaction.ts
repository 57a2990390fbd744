/**
 * What never reaches a log line, whatever its depth: values under keys that name a secret or a person
 * (REDACTED_KEYS, REDACTED_KEY_ENDINGS), secrets and customer aliases inside any text (scrubSecrets), and
 * everything of an error but its name, message, code, stack frames and cause (summarizeError).
 */
export const REDACTION_CENSOR = '[REDACTED]';

/**
 * Keys compared without case, `-` and `_`, so `client_secret`, `clientSecret` and `Client-Secret` are one
 * key. Credentials: Sika's API keys and webhook secrets, OAuth2 client secrets and tokens, signatures of
 * callbacks and webhooks, connection URLs that embed passwords. Personal data: customer and payout aliases,
 * the PI-SPI API Business objects and fields that name a payer or a payee (payeur, payé, client, nom,
 * prenom, raisonSociale, compte, iban, othr, numero…), holder names, emails and phone numbers.
 */
export const REDACTED_KEYS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'signature',
  'x-signature',
  'service-signature',
  'api_key',
  'secret_key',
  'private_key',
  'DATABASE_URL',
  'AMQP_URL',
  'REDIS_URL',
  'alias_client',
  'payeur',
  'paye',
  'payé',
  'payee',
  'payer',
  'client',
  'payeur_nom',
  'paye_nom',
  'payeur_compte',
  'paye_compte',
  'payeur_numero',
  'paye_numero',
  'nom',
  'prenom',
  'raison_sociale',
  'compte',
  'cle',
  'iban',
  'othr',
  'numero',
  'account_number',
  'holder_name',
  'payer_name',
  'payee_name',
  'customer_name',
  'email',
  'phone',
  'phone_number',
  'msisdn',
] as const;

/**
 * Keys ending so are redacted too: `customer_alias`, `payerAlias`, `payeurAlias`, `webhook_secret`,
 * `client_secret`, `access_token`, `checkout_token`, `password`, `API_KEY_PEPPER` … A masked copy is not:
 * `payer_alias_masked` stays readable.
 */
export const REDACTED_KEY_ENDINGS = [
  'alias',
  'secret',
  'password',
  'passwd',
  'token',
  'signature',
  'pepper',
  'secretkey',
  'apikey',
] as const;

function normalizedKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

const REDACTED_KEY_SET: ReadonlySet<string> = new Set(REDACTED_KEYS.map(normalizedKey));

/**
 * Log lines reuse a small set of keys: the verdict per key is cached. Keys come from code, but a logged
 * map (metadata) could bring many: the cache stops growing at this size and later keys are judged each time.
 */
const KEY_CACHE_LIMIT = 10_000;
const keyVerdicts = new Map<string, boolean>();

export function isRedactedKey(key: string): boolean {
  const cached = keyVerdicts.get(key);
  if (cached !== undefined) return cached;
  const normalized = normalizedKey(key);
  const verdict =
    REDACTED_KEY_SET.has(normalized) || REDACTED_KEY_ENDINGS.some((ending) => normalized.endsWith(ending));
  if (keyVerdicts.size < KEY_CACHE_LIMIT) keyVerdicts.set(key, verdict);
  return verdict;
}

/** Deeper than this (or a cycle), a logged object is cut: log narrowed objects. */
const MAX_DEPTH = 10;
const TRUNCATED = '[Truncated]';

/**
 * A copy of `value` with every value under a redacted key replaced by REDACTION_CENSOR, at any depth, and
 * every Error (at any depth) replaced by its summary (summarizeError). Objects with `toJSON` (dates, buffers)
 * are kept as they are; other objects are copied as JSON would see them (own enumerable keys).
 */
export function redactKeys(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return summarizeError(value);
  if (depth >= MAX_DEPTH) return TRUNCATED;
  if (Array.isArray(value)) return value.map((item: unknown) => redactKeys(item, depth + 1));
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    copy[key] = isRedactedKey(key) ? REDACTION_CENSOR : redactKeys(item, depth + 1);
  }
  return copy;
}

/**
 * Secrets recognised by their shape inside any text (messages, error texts, URLs): Sika's API keys and
 * webhook secrets keep their prefix, a Bearer or Basic credential its scheme, a URL its user name.
 */
const SECRET_SHAPES: readonly (readonly [RegExp, string])[] = [
  [/\b((?:sk|rk)_(?:test|live)_|whsec_)[A-Za-z0-9+/=_-]+/g, `$1${REDACTION_CENSOR}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTION_CENSOR}`],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@"]*:)[^\s@/"]+@/gi, `$1${REDACTION_CENSOR}@`],
];
/** A phone alias with its country code, as PI-SPI and Sika write it, separators allowed between digits. */
const PHONE_ALIAS = /\+\d{3}(?:[ \u00A0.-]?\d){8,10}(?!\d)/g;
/** One cheap test first: most lines hold none of these and are returned untouched. */
const ANY_SHAPE = /sk_|rk_|whsec_|bearer|basic|:\/\/[^\s/@"]*:|\+\d{3}/i;

/** `text` with the secrets of SECRET_SHAPES censored and phone aliases masked (maskAlias). */
export function scrubSecrets(text: string): string {
  if (!ANY_SHAPE.test(text)) return text;
  let scrubbed = text;
  for (const [shape, replacement] of SECRET_SHAPES) scrubbed = scrubbed.replace(shape, replacement);
  return scrubbed.replace(PHONE_ALIAS, (alias) => maskAlias(alias));
}

export interface SerializedError {
  name: string;
  message: string;
  code?: string | number;
  /** The error's name and message, then its stack frames: never a message the error did not announce. */
  stack?: string;
  cause?: SerializedError | string;
}

/** Causes of causes are followed this far. */
const MAX_CAUSE_DEPTH = 3;

/**
 * What a log keeps of an error: name, message, code, stack frames and the same of its cause. Other
 * properties (Prisma's `meta`, a gRPC error's `metadata`, an HTTP client's request) may hold arguments,
 * headers or bodies and are dropped. A Prisma error's message is cut to its last paragraph, the reason:
 * the paragraphs before it render the call with its arguments.
 */
export function summarizeError(error: Error, depth = 0): SerializedError {
  const name = error.name;
  const message = name.startsWith('PrismaClient') ? lastParagraph(error.message) : error.message;
  const summary: SerializedError = { name, message };
  const code: unknown = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') summary.code = code;
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  if (frames.length > 0) summary.stack = [`${name}: ${message}`, ...frames].join('\n');
  const cause: unknown = error.cause;
  if (cause instanceof Error && depth < MAX_CAUSE_DEPTH) summary.cause = summarizeError(cause, depth + 1);
  else if (cause !== undefined) summary.cause = cause instanceof Error ? cause.name : typeof cause;
  return summary;
}

/** pino's `err` serializer: errors summarized (summarizeError), anything else as it is. */
export function serializeError(value: unknown): unknown {
  return value instanceof Error ? summarizeError(value) : value;
}

function lastParagraph(text: string): string {
  const paragraphs = text.trim().split(/\n\s*\n/);
  return (paragraphs[paragraphs.length - 1] ?? '').trim();
}

/**
 * Masks the middle of an identifier (account number, email, opaque alias): keeps 2 characters at each end
 * when it is long enough for that to leave most of it hidden, else only the last 2, else nothing.
 */
export function maskIdentifier(value: string): string {
  const length = value.length;
  const [head, tail] = length >= 8 ? [2, 2] : length >= 5 ? [0, 2] : [0, 0];
  return value.slice(0, head) + '*'.repeat(length - head - tail) + value.slice(length - tail);
}

const WITH_COUNTRY_CODE = /^(\+\d{1,3})([\s-])(.+)$/;
/** Without a separator the country code length is ambiguous; UEMOA codes (+221 … +245) all have 3 digits. */
const COMPACT_COUNTRY_CODE = /^(\+\d{3})()(.+)$/;

/** `+225 0700000001` → `+225 07******01`: support can tell aliases apart without reading them. */
export function maskAlias(alias: string): string {
  const trimmed = alias.trim();
  const match = WITH_COUNTRY_CODE.exec(trimmed) ?? COMPACT_COUNTRY_CODE.exec(trimmed);
  if (!match) return maskIdentifier(trimmed);
  const [, countryCode = '', separator = '', nationalNumber = ''] = match;
  return `${countryCode}${separator}${maskIdentifier(nationalNumber)}`;
}
