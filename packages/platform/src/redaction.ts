/**
 * Keys whose values never reach a log line, in snake_case and camelCase (payloads, gRPC messages and config
 * objects use both). Credentials: API secret keys, webhook secrets, passwords, tokens, connection URLs that
 * embed passwords. Personal data: customer aliases (phone numbers) and payout account identifiers; log a
 * masked copy (maskAlias) when one is needed for support.
 */
export const REDACTED_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'secret',
  'secret_key',
  'secretKey',
  'api_key',
  'apiKey',
  'webhook_secret',
  'webhookSecret',
  'signing_secret',
  'signingSecret',
  'token',
  'access_token',
  'accessToken',
  'customer_alias',
  'customerAlias',
  'alias',
  'payer_alias',
  'payerAlias',
  'payout_alias',
  'payoutAlias',
  'account_number',
  'accountNumber',
  'iban',
  'DATABASE_URL',
  'databaseUrl',
  'AMQP_URL',
  'amqpUrl',
  'REDIS_URL',
  'redisUrl',
] as const;

/**
 * pino redaction has no "any depth" wildcard, so each key is listed at the depths where objects are logged:
 * top level (`password`), inside one object (`*.password`, e.g. `{ body: {...} }`) and two
 * (`*.*.password`, e.g. `req.headers.authorization` or `{ request: { payer: {...} } }`).
 * Deeper values are not redacted: log a narrowed object instead of a whole payload.
 */
export const REDACTED_DEPTHS = 3;

function pathSegment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
}

function joinPath(prefix: string, key: string): string {
  const segment = pathSegment(key);
  if (prefix === '') return segment;
  return segment.startsWith('[') ? `${prefix}${segment}` : `${prefix}.${segment}`;
}

export function redactionPaths(keys: readonly string[] = REDACTED_KEYS): string[] {
  const prefixes = Array.from({ length: REDACTED_DEPTHS }, (_, depth) => Array(depth).fill('*').join('.'));
  return prefixes.flatMap((prefix) => keys.map((key) => joinPath(prefix, key)));
}

export const REDACTION_CENSOR = '[REDACTED]';

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
