/**
 * Bad payment-creation bodies, one per rule of spec §2.2 and §8 (and of the decisions that complete them),
 * each with the error it must get. Shared by the schema's unit test and the HTTP validation test.
 */
export interface BadCreationCase {
  rule: string;
  body: Record<string, unknown> | unknown[];
  code: 'parameter_invalid' | 'parameter_missing' | 'parameter_unknown';
  param: string | undefined;
  /** Checked by a refinement (depends on the mode or the clock): described in the OpenAPI document, not in its JSON Schema. */
  byRefinement?: true;
}

export const VALID_BODY = { amount: 5_000, return_url: 'https://shop.example/return' } as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Time bounds are missed by minutes, not milliseconds, so a case made at collection time still fails when it
 * reaches a server whose clock has moved on.
 */
export function badCreationCases(now: Date): BadCreationCase[] {
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
  const manyKeys = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`k${index}`, 'v']));
  const invalid = (rule: string, body: Record<string, unknown>, param: string): BadCreationCase => ({
    rule,
    body: { ...VALID_BODY, ...body },
    code: 'parameter_invalid',
    param,
  });
  const byRefinement = (example: BadCreationCase): BadCreationCase => ({ ...example, byRefinement: true });
  return [
    {
      rule: 'amount is required',
      body: { return_url: VALID_BODY.return_url },
      code: 'parameter_missing',
      param: 'amount',
    },
    invalid('amount >= 1 (zero)', { amount: 0 }, 'amount'),
    invalid('amount >= 1 (negative)', { amount: -100 }, 'amount'),
    invalid('amount is whole francs', { amount: 10.5 }, 'amount'),
    invalid('amount is an integer, not a string', { amount: '5000' }, 'amount'),
    invalid('amount is not null', { amount: null }, 'amount'),
    invalid('amount at most 2^53 - 1', { amount: 2 ** 53 }, 'amount'),
    invalid('currency only XOF', { currency: 'EUR' }, 'currency'),
    invalid('currency is exactly XOF', { currency: 'xof' }, 'currency'),
    invalid('mode immediate or on_delivery', { mode: 'later' }, 'mode'),
    invalid('expires_at is a date-time', { expires_at: 'tomorrow' }, 'expires_at'),
    invalid('expires_at has a time zone', { expires_at: '2030-01-01T00:00:00' }, 'expires_at'),
    byRefinement(
      invalid('immediate expires_at at least 1 minute ahead', { expires_at: at(59_000) }, 'expires_at'),
    ),
    byRefinement(invalid('immediate expires_at not in the past', { expires_at: at(-MINUTE) }, 'expires_at')),
    byRefinement(
      invalid(
        'immediate expires_at at most 24 hours ahead',
        { expires_at: at(DAY + 10 * MINUTE) },
        'expires_at',
      ),
    ),
    byRefinement({
      rule: 'on_delivery requires expires_at',
      body: { ...VALID_BODY, mode: 'on_delivery' },
      code: 'parameter_missing',
      param: 'expires_at',
    }),
    byRefinement({
      rule: 'on_delivery requires expires_at (null)',
      body: { ...VALID_BODY, mode: 'on_delivery', expires_at: null },
      code: 'parameter_missing',
      param: 'expires_at',
    }),
    byRefinement(
      invalid(
        'on_delivery expires_at at most 30 days',
        { mode: 'on_delivery', expires_at: at(30 * DAY + 10 * MINUTE) },
        'expires_at',
      ),
    ),
    byRefinement(
      invalid(
        'on_delivery expires_at at least 24 hours ahead (PI-SPI schedules nothing nearer)',
        { mode: 'on_delivery', expires_at: at(DAY - 10 * MINUTE) },
        'expires_at',
      ),
    ),
    byRefinement(
      invalid(
        'on_delivery expires_at in the future',
        { mode: 'on_delivery', expires_at: at(-1_000) },
        'expires_at',
      ),
    ),
    invalid('reference at most 100 characters', { reference: 'r'.repeat(101) }, 'reference'),
    invalid('reference is a string', { reference: 42 }, 'reference'),
    invalid('description at most 140 characters', { description: 'é'.repeat(141) }, 'description'),
    invalid(
      'customer_alias at most 40 characters',
      { customer_alias: `+225 ${'0 '.repeat(18)}` },
      'customer_alias',
    ),
    invalid(
      'phone alias: 8 digits at least after the country code',
      { customer_alias: '+225 0700 000' },
      'customer_alias',
    ),
    invalid(
      'phone alias: 10 digits at most after the country code',
      { customer_alias: '+225 07 00 00 00 011' },
      'customer_alias',
    ),
    invalid('phone alias: digits only', { customer_alias: '+225 07 00 0A 00 01' }, 'customer_alias'),
    invalid('identifier alias: at most 36 characters', { customer_alias: 'a'.repeat(37) }, 'customer_alias'),
    invalid(
      'identifier alias: letters, digits, hyphens',
      { customer_alias: 'jean_dupont' },
      'customer_alias',
    ),
    invalid('identifier alias: not empty', { customer_alias: '' }, 'customer_alias'),
    {
      rule: 'return_url is required',
      body: { amount: 5_000 },
      code: 'parameter_missing',
      param: 'return_url',
    },
    invalid('return_url is a URI', { return_url: 'not a url' }, 'return_url'),
    invalid('return_url is absolute', { return_url: '/orders/42' }, 'return_url'),
    invalid('return_url is http(s)', { return_url: 'javascript:alert(1)' }, 'return_url'),
    invalid('return_url has //', { return_url: 'https:shop.example' }, 'return_url'),
    invalid('return_url is not null', { return_url: null }, 'return_url'),
    invalid('cancel_url is an http(s) URI', { cancel_url: 'ftp://shop.example/cancel' }, 'cancel_url'),
    invalid('metadata at most 20 keys', { metadata: manyKeys }, 'metadata'),
    invalid(
      'metadata values at most 500 characters',
      { metadata: { order: 'x'.repeat(501) } },
      'metadata[order]',
    ),
    invalid('metadata values are strings', { metadata: { order: 42 } }, 'metadata[order]'),
    invalid(
      'metadata keys at most 40 characters',
      { metadata: { ['k'.repeat(41)]: 'v' } },
      `metadata[${'k'.repeat(41)}]`,
    ),
    invalid('metadata is an object', { metadata: ['a'] }, 'metadata'),
    // Text Postgres cannot store (NUL) or that has no place in a bank's statement (other C0 controls).
    invalid('reference without NUL', { reference: 'a\u0000b' }, 'reference'),
    invalid('description without control characters', { description: 'ring\u0007' }, 'description'),
    invalid('customer_alias without NUL', { customer_alias: '+225 0000000001\u0000' }, 'customer_alias'),
    invalid('metadata values without NUL', { metadata: { order: 'a\u0000' } }, 'metadata[order]'),
    invalid(
      'metadata keys without control characters',
      { metadata: { 'or\u001fder': 'v' } },
      'metadata[or\u001fder]',
    ),
    {
      rule: 'unknown fields are refused',
      body: { ...VALID_BODY, amout: 5_000 },
      code: 'parameter_unknown',
      param: 'amout',
    },
    { rule: 'the body is an object', body: [VALID_BODY], code: 'parameter_invalid', param: undefined },
  ];
}
