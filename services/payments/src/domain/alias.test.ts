import { AppError } from '@sika/platform/pure';
import { parsePayerAlias } from './alias';

describe('parsePayerAlias', () => {
  it.each([
    ['+225 0000000001', '+225 0000000001', '+225 00******01'],
    ['+2250700000001', '+225 0700000001', '+225 07******01'],
    ['+225 07.00.00-00 01', '+225 0700000001', '+225 07******01'],
    ['+221 12345678', '+221 12345678', '+221 12****78'],
  ])('normalises the phone number %p', (raw, value, masked) => {
    expect(parsePayerAlias(raw)).toEqual({ value, masked });
  });

  it.each([
    ['9b1b3499-3e50-435b-b757-ac7a83d8aa96', `9b${'*'.repeat(32)}96`],
    ['shop-42', '*****42'],
  ])('keeps the identifier %p as entered and masks its middle', (raw, masked) => {
    const alias = parsePayerAlias(raw);
    expect(alias.value).toBe(raw);
    expect(alias.masked).toBe(masked);
  });

  it.each([
    ['+225 1234567'], // 7 digits
    ['+225 12345678901'], // 11 digits
    ['+22 12345678'], // read as +221 then 7 digits
    ['+225 0700/000001'],
    ['shop_42'],
    ['x'.repeat(37)],
    [''],
    ['+' + '1'.repeat(40)],
  ])('rejects %p with parameter_invalid on customer_alias', (raw) => {
    let thrown: unknown;
    try {
      parsePayerAlias(raw);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe('parameter_invalid');
    expect((thrown as AppError).param).toBe('customer_alias');
  });

  it('reports the param it is given', () => {
    expect(() => parsePayerAlias('bad alias!', 'alias')).toThrow(expect.objectContaining({ param: 'alias' }));
  });
});
