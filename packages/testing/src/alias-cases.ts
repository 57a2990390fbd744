/**
 * One table of customer aliases for every entry point that takes one: the public API, payments' gRPC and
 * the hosted page run it and must agree with each other (and with @sika/rules, which all three apply).
 * Expectations are written out, not computed, so that a change to the rule shows up here.
 */
export type AliasCase =
  | { input: string; why: string; accepted: true; value: string; masked: string }
  | { input: string; why: string; accepted: false; problem: 'missing' | 'too_long' | 'malformed' };

const PAYS_AT_ONCE = { value: '+225 0000000001', masked: '+225 00******01' } as const;

export const ALIAS_CASES: readonly AliasCase[] = [
  { input: '+225 0000000001', why: 'as the contract writes it', accepted: true, ...PAYS_AT_ONCE },
  { input: '+2250000000001', why: 'without separators', accepted: true, ...PAYS_AT_ONCE },
  { input: ' +225 0000000001', why: 'a leading space', accepted: true, ...PAYS_AT_ONCE },
  { input: '+225 0000000001 ', why: 'a trailing space', accepted: true, ...PAYS_AT_ONCE },
  { input: '+225 00.00.00.00.01', why: 'dots between groups', accepted: true, ...PAYS_AT_ONCE },
  { input: '+225-00-00-00-00-01', why: 'hyphens between groups', accepted: true, ...PAYS_AT_ONCE },
  { input: '+225 00 00 00 00 01.', why: 'a trailing separator', accepted: true, ...PAYS_AT_ONCE },
  { input: '-+225 0000000001', why: 'a leading separator', accepted: true, ...PAYS_AT_ONCE },
  {
    input: '+225\u00A000\u00A000\u00A000\u00A000\u00A001',
    why: 'no-break spaces, as French formatting writes numbers',
    accepted: true,
    ...PAYS_AT_ONCE,
  },
  {
    input: '+221 77123456',
    why: 'the shortest national number (8 digits)',
    accepted: true,
    value: '+221 77123456',
    masked: '+221 77****56',
  },
  {
    input: '+2290123456789',
    why: 'the longest national number (10 digits)',
    accepted: true,
    value: '+229 0123456789',
    masked: '+229 01******89',
  },
  {
    input: 'boutique-adjoua',
    why: 'an identifier',
    accepted: true,
    value: 'boutique-adjoua',
    masked: 'bo***********ua',
  },
  { input: 'A', why: 'a one-character identifier', accepted: true, value: 'A', masked: '*' },
  {
    input: ' shop-42 ',
    why: 'an identifier between spaces',
    accepted: true,
    value: 'shop-42',
    masked: '*****42',
  },
  {
    input: 'x'.repeat(36),
    why: 'a 36-character identifier',
    accepted: true,
    value: 'x'.repeat(36),
    masked: `xx${'*'.repeat(32)}xx`,
  },
  {
    input: '2250000000001',
    why: 'digits without + make an identifier',
    accepted: true,
    value: '2250000000001',
    masked: '22*********01',
  },
  { input: '', why: 'empty', accepted: false, problem: 'missing' },
  { input: '   ', why: 'spaces only', accepted: false, problem: 'missing' },
  { input: '+225 000000', why: 'a national number of 6 digits', accepted: false, problem: 'malformed' },
  { input: '+225 00000000012', why: 'a national number of 11 digits', accepted: false, problem: 'malformed' },
  { input: '+225 0000000001x', why: 'a letter in a phone number', accepted: false, problem: 'malformed' },
  { input: '++2250000000001', why: 'two plus signs', accepted: false, problem: 'malformed' },
  { input: '+225\t0000000001', why: 'a tab is no separator', accepted: false, problem: 'malformed' },
  { input: 'x'.repeat(37), why: 'a 37-character identifier', accepted: false, problem: 'malformed' },
  { input: 'shop 42', why: 'a space inside an identifier', accepted: false, problem: 'malformed' },
  { input: 'shop_42', why: 'an underscore', accepted: false, problem: 'malformed' },
  { input: 'café', why: 'a letter outside A-Z', accepted: false, problem: 'malformed' },
  {
    input: `+225 ${'. '.repeat(15)}0000000001`,
    why: 'more than 40 characters, although well formed',
    accepted: false,
    problem: 'too_long',
  },
];
