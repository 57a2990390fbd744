import { api } from './support/api';
import { createMerchant } from './support/cli';

jest.setTimeout(60_000);

const valid = { amount: 1_000, return_url: 'https://shop.example/return' };

/** A sample of the rules, through the whole stack; the gateway's own tests hold one row per rule of §2.2 and §8. */
const badInputs: Array<[string, unknown, string]> = [
  ['amount below 1', { ...valid, amount: 0 }, 'amount'],
  ['decimal amount', { ...valid, amount: 10.5 }, 'amount'],
  ['another currency', { ...valid, currency: 'EUR' }, 'currency'],
  ['reference over 100', { ...valid, reference: 'r'.repeat(101) }, 'reference'],
  ['description over 140', { ...valid, description: 'd'.repeat(141) }, 'description'],
  ['badly formed alias', { ...valid, customer_alias: '+22 5' }, 'customer_alias'],
  ['on_delivery without expires_at', { ...valid, mode: 'on_delivery' }, 'expires_at'],
  [
    '21 metadata keys',
    { ...valid, metadata: Object.fromEntries([...Array(21).keys()].map((i) => [`k${i}`, 'v'])) },
    'metadata',
  ],
  ['unknown field', { ...valid, colour: 'blue' }, 'colour'],
  ['missing return_url', { amount: 1_000 }, 'return_url'],
];

describe('bad input through the whole stack', () => {
  const merchant = createMerchant('E2E Validation');

  it.each(badInputs)('%s → 400 naming the parameter, nothing created', async (_rule, body, param) => {
    const response = await api<{ error: { type: string; param: string } }>(
      merchant.secret_key,
      'POST',
      '/v1/payments',
      {
        body,
      },
    );
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
    const list = await api<{ data: unknown[] }>(merchant.secret_key, 'GET', '/v1/payments');
    expect(list.body.data).toEqual([]);
  });
});
