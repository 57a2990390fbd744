import { createHmac, timingSafeEqual } from 'node:crypto';

import { SikaSignatureVerificationError } from './errors';

/** The header every delivery carries (spec §5.5). */
export const SIGNATURE_HEADER = 'Service-Signature';
/** Five minutes (spec §8): an older timestamp is refused, and so is one further ahead (a clock off by that much). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** What a webhook delivers (spec §2.6); `data.object` is the payment or payout as the API shows it. */
export interface WebhookEvent {
  id: string;
  object: 'event';
  type: string;
  created_at: string;
  livemode: boolean;
  data: { object: { id: string; object: string } & Record<string, unknown> };
}

export interface ConstructEventOptions {
  /** Seconds between the signature's timestamp and now beyond which the delivery is refused (300). */
  tolerance?: number;
  /** "Now", for tests of old deliveries: a Date or Unix seconds. */
  receivedAt?: Date | number;
}

function hmacHex(secret: string, timestamp: number, payload: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex');
}

function bytesOf(payload: string | Buffer): Buffer {
  return typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
  const pairs = header.split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? ['', ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  const timestamps = pairs.filter(([name]) => name === 't').map(([, value]) => value);
  const signatures = pairs.filter(([name]) => name === 'v1').map(([, value]) => value ?? '');
  const [timestamp] = timestamps;
  if (timestamps.length !== 1 || timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) {
    throw new SikaSignatureVerificationError(
      'header_malformed',
      `${SIGNATURE_HEADER} must carry one t=<unix seconds>; got: ${JSON.stringify(header.slice(0, 200))}.`,
    );
  }
  if (signatures.length === 0) {
    throw new SikaSignatureVerificationError(
      'header_malformed',
      `${SIGNATURE_HEADER} carries no v1= signature; got: ${JSON.stringify(header.slice(0, 200))}.`,
    );
  }
  return { timestamp: Number(timestamp), signatures };
}

/**
 * Checks a delivery and returns its event: `rawBody` exactly as received (before any JSON parsing), the
 * `Service-Signature` header, the endpoint's `whsec_…` secret. The header is `t=<unix seconds>` and one
 * `v1=<hex HMAC-SHA256 of "<t>.<raw body>">` per secret in use (two while a rolled secret's overlap lasts):
 * one matching entry is enough. Compared in constant time. Throws SikaSignatureVerificationError, whose
 * `reason` names the check that failed.
 */
export function constructEvent(
  rawBody: string | Buffer,
  signatureHeader: string | string[] | undefined,
  secret: string,
  options: ConstructEventOptions = {},
): WebhookEvent {
  if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) {
    throw new SikaSignatureVerificationError(
      'payload_not_raw',
      'Pass the raw body as received (a string or a Buffer, e.g. express.raw()), not parsed JSON: the ' +
        'signature covers the exact bytes.',
    );
  }
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError("The endpoint's webhook secret (whsec_…) is required.");
  }
  const header = Array.isArray(signatureHeader) ? signatureHeader.join(',') : signatureHeader;
  if (header === undefined || header.trim() === '') {
    throw new SikaSignatureVerificationError('header_missing', `The ${SIGNATURE_HEADER} header is missing.`);
  }
  const { timestamp, signatures } = parseHeader(header);

  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  const receivedAt = options.receivedAt ?? new Date();
  const now = typeof receivedAt === 'number' ? receivedAt : receivedAt.getTime() / 1000;
  if (Math.abs(now - timestamp) > tolerance) {
    throw new SikaSignatureVerificationError(
      'timestamp_outside_tolerance',
      `The signature's timestamp (${timestamp}) is ${Math.round(Math.abs(now - timestamp))} s ` +
        `${timestamp < now ? 'old' : 'ahead'}, beyond the tolerance of ${tolerance} s: a replay, or a clock off.`,
    );
  }

  const payload = bytesOf(rawBody);
  const expected = Buffer.from(hmacHex(secret, timestamp, payload), 'hex');
  const matches = signatures.some((signature) => {
    const given = /^[0-9a-f]+$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) {
    throw new SikaSignatureVerificationError(
      'no_matching_signature',
      'No v1 signature matches the body with this secret: check the secret (the endpoint’s whsec_…) and that ' +
        'the body is the raw one, unmodified.',
    );
  }
  try {
    return JSON.parse(payload.toString('utf8')) as WebhookEvent;
  } catch {
    throw new SikaSignatureVerificationError('payload_not_json', 'The signed body is not JSON.');
  }
}

/**
 * The Service-Signature header of `payload` signed with each secret at `timestamp` (Unix seconds, now by
 * default), as Sika signs deliveries: for tests of a webhook handler, and for `sika listen`'s forwarding.
 */
export function signatureHeaderFor(
  payload: string | Buffer,
  secrets: string | readonly string[],
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const bytes = bytesOf(payload);
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  return [`t=${timestamp}`, ...all.map((secret) => `v1=${hmacHex(secret, timestamp, bytes)}`)].join(',');
}
