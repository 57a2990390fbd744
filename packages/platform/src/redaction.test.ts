import { maskAlias, maskIdentifier, redactionPaths } from './redaction';

describe('maskAlias', () => {
  it.each([
    ['+225 0700000001', '+225 07******01'],
    ['+225 0000000005', '+225 00******05'],
    ['+225-0700000001', '+225-07******01'],
    ['+2250700000001', '+22507******01'],
    ['0700000001', '07******01'],
    [' +221 771234567 ', '+221 77*****67'],
  ])('masks %j as %j', (alias, masked) => {
    expect(maskAlias(alias)).toBe(masked);
  });
});

describe('maskIdentifier', () => {
  it('keeps two characters at each end of long values, fewer for short ones', () => {
    expect(maskIdentifier('CI0080100000000123456789')).toBe('CI********************89');
    expect(maskIdentifier('1234567')).toBe('*****67');
    expect(maskIdentifier('1234')).toBe('****');
    expect(maskIdentifier('')).toBe('');
  });
});

describe('redactionPaths', () => {
  it('lists each key at three depths, with bracket notation where needed', () => {
    expect(redactionPaths(['password', 'set-cookie'])).toEqual([
      'password',
      '["set-cookie"]',
      '*.password',
      '*["set-cookie"]',
      '*.*.password',
      '*.*["set-cookie"]',
    ]);
  });
});
