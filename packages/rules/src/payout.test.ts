import { parsePayoutAlias, payoutFailureCodeOf } from './payout';

describe('payout account aliases', () => {
  it('reads a phone number as MBNO, a 36-character key as SHID, another identifier as a merchant code', () => {
    expect(parsePayoutAlias('+225 07 00 00 01 00')).toEqual({
      type: 'phone',
      schemeValue: '+2250700000100',
      masked: expect.not.stringContaining('0700000100'),
    });
    expect(parsePayoutAlias('9b1b2499-3e50-435b-b757-ac7a83d8aa8c')).toMatchObject({
      type: 'account_key',
      schemeValue: '9b1b2499-3e50-435b-b757-ac7a83d8aa8c',
    });
    expect(parsePayoutAlias('BOUTIQUE42')).toMatchObject({
      type: 'merchant_code',
      schemeValue: 'BOUTIQUE42',
    });
  });

  it('refuses what is neither', () => {
    expect(parsePayoutAlias('')).toBeUndefined();
    expect(parsePayoutAlias('not an alias!')).toBeUndefined();
  });
});

describe('payout failure codes', () => {
  it.each([
    ['BE23', 'no_account'],
    ['AC06', 'account_frozen'],
    ['AC07', 'account_closed'],
    ['AB08', 'bank_unavailable'],
    ['AM21', 'amount_limit_exceeded'],
    ['RR04', 'declined'],
    ['AB04', 'could_not_process'],
    ['XXXX', 'could_not_process'],
    [undefined, 'could_not_process'],
  ])('maps %s to %s', (reason, code) => {
    expect(payoutFailureCodeOf(reason)).toBe(code);
  });
});
