import { createHmac } from 'node:crypto';

import { signBody, verifySignature } from './signature';

const secret = 'xsk_9jETWMz1g1b37gCONjNp84t2KSSIU6rG';
const body = '{"data":[{"evCode":"PAIEMENT_RECU","txId":"t1"}],"meta":{"total":1}}';

describe('X-Signature', () => {
  it('is the lowercase hex HMAC-SHA256 of the raw body', () => {
    const independent = createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(Buffer.from(body))
      .digest('hex');
    expect(signBody(body, secret)).toBe(independent);
    expect(signBody(Buffer.from(body), secret)).toBe(independent);
  });

  it('verifies a signature made over the same bytes, whatever the hex case', () => {
    const signature = signBody(body, secret);
    expect(verifySignature(body, secret, signature)).toBe(true);
    expect(verifySignature(Buffer.from(body), secret, signature.toUpperCase())).toBe(true);
  });

  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['a truncated signature', signBody(body, secret).slice(0, 63)],
    ['a non-hex signature', 'z'.repeat(64)],
    ['a signature under another secret', signBody(body, 'other')],
  ])('rejects %s', (_case, signature) => {
    expect(verifySignature(body, secret, signature)).toBe(false);
  });

  it('rejects a body changed after signing, even by whitespace', () => {
    const signature = signBody(body, secret);
    expect(verifySignature(body.replace(':', ': '), secret, signature)).toBe(false);
  });
});
