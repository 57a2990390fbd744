import { readFileSync } from 'node:fs';
import path from 'node:path';

import { SikaSignatureVerificationError } from './errors';
import { constructEvent, signatureHeaderFor } from './webhooks';

/** Shared with the webhook-dispatcher's signing tests: what Sika signs is what this library accepts. */
interface Vectors {
  signatures: { name: string; secrets: string[]; timestamp: number; payload: string; header: string }[];
  verifications: {
    name: string;
    header: string;
    payload: string;
    secret: string;
    now: number;
    tolerance?: number;
    valid: boolean;
    reason?: string;
  }[];
}
const VECTORS = JSON.parse(
  readFileSync(path.join(__dirname, '../test-vectors/webhook-signatures.json'), 'utf8'),
) as Vectors;

function failureOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof SikaSignatureVerificationError) return error.reason;
    throw error;
  }
}

describe('constructEvent', () => {
  it.each(VECTORS.verifications.map((vector) => [vector.name, vector] as const))(
    '%s',
    (_name, { header, payload, secret, now, tolerance, valid, reason }) => {
      const options = { receivedAt: now, ...(tolerance !== undefined && { tolerance }) };
      expect(failureOf(() => constructEvent(payload, header, secret, options))).toBe(
        valid ? undefined : reason,
      );
    },
  );

  it.each(VECTORS.signatures.map((vector) => [vector.name, vector] as const))(
    'accepts what Sika signs, with each secret, from a string or a Buffer: %s',
    (_name, { secrets, timestamp, payload, header }) => {
      for (const secret of secrets) {
        expect(constructEvent(payload, header, secret, { receivedAt: timestamp })).toEqual(
          JSON.parse(payload),
        );
        expect(constructEvent(Buffer.from(payload), header, secret, { receivedAt: timestamp })).toEqual(
          JSON.parse(payload),
        );
      }
    },
  );

  it('refuses a parsed body: the signature covers the raw bytes', () => {
    const [{ header, payload, secret, now }] = VECTORS.verifications as [Vectors['verifications'][number]];
    const parsed = JSON.parse(payload) as unknown as string;
    expect(failureOf(() => constructEvent(parsed, header, secret, { receivedAt: now }))).toBe(
      'payload_not_raw',
    );
  });

  it('refuses a missing header, as undefined or as an empty list', () => {
    const [{ payload, secret }] = VECTORS.verifications as [Vectors['verifications'][number]];
    expect(failureOf(() => constructEvent(payload, undefined, secret))).toBe('header_missing');
    expect(failureOf(() => constructEvent(payload, [], secret))).toBe('header_missing');
  });

  it('checks against the current time by default (300 s)', () => {
    const payload = '{"id":"evt_now","object":"event"}';
    const secret = 'whsec_now';
    const now = Math.floor(Date.now() / 1000);
    expect(constructEvent(payload, signatureHeaderFor(payload, secret, now - 290), secret).id).toBe(
      'evt_now',
    );
    expect(
      failureOf(() => constructEvent(payload, signatureHeaderFor(payload, secret, now - 310), secret)),
    ).toBe('timestamp_outside_tolerance');
  });
});

describe('signatureHeaderFor', () => {
  it.each(VECTORS.signatures.map((vector) => [vector.name, vector] as const))(
    'signs as Sika does: %s',
    (_name, { secrets, timestamp, payload, header }) => {
      expect(signatureHeaderFor(payload, secrets, timestamp)).toBe(header);
    },
  );
});
