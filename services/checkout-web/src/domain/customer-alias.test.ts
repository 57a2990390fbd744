import { checkCustomerAlias } from './customer-alias';

describe('checkCustomerAlias', () => {
  it.each([
    ['+225 07 00 00 00 01', '+225 07 00 00 00 01'],
    ['+2250700000001', '+2250700000001'],
    ['+225 07.00-00.00.01', '+225 07.00-00.00.01'],
    ['+225 00000001', '+225 00000001'],
    ['  +225 0000000001  ', '+225 0000000001'],
    ['awa-traore-42', 'awa-traore-42'],
    ['A', 'A'],
    ['x'.repeat(36), 'x'.repeat(36)],
  ])('accepts %j', (raw, alias) => {
    expect(checkCustomerAlias(raw)).toEqual({ ok: true, alias });
  });

  it.each([
    ['', 'alias_missing'],
    ['   ', 'alias_missing'],
    ['+225 0000001', 'alias_invalid'],
    ['+225 00000000001', 'alias_invalid'],
    ['0700000001 ext', 'alias_invalid'],
    ['x'.repeat(37), 'alias_invalid'],
    ['awa_traore', 'alias_invalid'],
    ['+225 07 00 00 00 01 '.repeat(2), 'alias_invalid'],
    ['+ 2 2 5 0 7 0 0 0 0 0 0 0 1 . . . . . . . . . . . .', 'alias_invalid'],
  ])('refuses %j as %s', (raw, problem) => {
    expect(checkCustomerAlias(raw)).toEqual({ ok: false, problem });
  });
});
