import { createHmac, timingSafeEqual } from 'node:crypto';
import { signatureHeader } from './signature';

/**
 * A receiver's verification written from spec §5.5 alone, as a merchant would: parse `t` and `v1`, recompute
 * the HMAC over `<t>.<raw body>`, compare in constant time, reject timestamps older than 5 minutes.
 */
function verify(header: string, rawBody: string, secret: string, now: Date): boolean {
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = parts.get('t');
  const signature = parts.get('v1');
  if (timestamp === undefined || signature === undefined || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv';
const BODY = '{"id":"evt_1","object":"event"}';
const AT = new Date('2026-01-01T00:00:00.900Z');

describe('signatureHeader', () => {
  it('matches a vector computed outside this code base (Python hmac)', () => {
    expect(signatureHeader([SECRET], BODY, AT)).toBe(
      't=1767225600,v1=642de0ecf5a1ba62105c2167440241e3cff7bb15f9d99ede262de7a30fbec496',
    );
  });

  it('passes an independent verification, and only for the same body, secret and a fresh time', () => {
    const header = signatureHeader([SECRET], BODY, AT);
    expect(verify(header, BODY, SECRET, AT)).toBe(true);
    expect(verify(header, `${BODY} `, SECRET, AT)).toBe(false);
    expect(verify(header, BODY, `${SECRET}x`, AT)).toBe(false);
    expect(verify(header, BODY, SECRET, new Date(AT.getTime() + 6 * 60_000))).toBe(false);
  });

  it('signs the raw bytes: non-ASCII characters are hashed as UTF-8', () => {
    const body = '{"description":"Commande n°42 — café"}';
    expect(verify(signatureHeader([SECRET], body, AT), body, SECRET, AT)).toBe(true);
  });

  it('adds one v1 entry per secret, in order, over the same timestamp', () => {
    const previous = 'whsec_previouspreviouspreviousprevious';
    const header = signatureHeader([SECRET, previous], BODY, AT);
    const [timestamp, first, second, ...rest] = header.split(',');
    expect(rest).toEqual([]);
    expect(`${timestamp},${first}`).toBe(signatureHeader([SECRET], BODY, AT));
    expect(`${timestamp},${second}`).toBe(signatureHeader([previous], BODY, AT));
  });
});
