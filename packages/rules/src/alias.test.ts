import { ALIAS_CASES } from '@sika/testing';

import { CUSTOMER_ALIAS_PATTERN, parseCustomerAlias } from './alias';
import { characterCount, TEXT_LIMITS } from './text';

describe('parseCustomerAlias', () => {
  it.each(ALIAS_CASES.map((aliasCase) => [aliasCase.why, aliasCase] as const))('%s', (_why, aliasCase) => {
    const parsed = parseCustomerAlias(aliasCase.input);
    if (aliasCase.accepted) {
      expect(parsed).toEqual({
        ok: true,
        alias: expect.objectContaining({ value: aliasCase.value, masked: aliasCase.masked }),
      });
    } else {
      expect(parsed).toEqual({ ok: false, problem: aliasCase.problem });
    }
  });

  it('gives the scheme the phone number without separators, an identifier as it is', () => {
    expect(parseCustomerAlias(' +225 00.00.00.00.01 ')).toEqual({
      ok: true,
      alias: {
        kind: 'phone',
        value: '+225 0000000001',
        schemeValue: '+2250000000001',
        masked: '+225 00******01',
      },
    });
    expect(parseCustomerAlias(' shop-42')).toEqual({
      ok: true,
      alias: { kind: 'identifier', value: 'shop-42', schemeValue: 'shop-42', masked: '*****42' },
    });
  });

  it('publishes a pattern that accepts exactly what the parser accepts, within the length limit', () => {
    for (const aliasCase of ALIAS_CASES) {
      const withinLimit = characterCount(aliasCase.input) <= TEXT_LIMITS.customerAlias;
      const patternAccepts = withinLimit && CUSTOMER_ALIAS_PATTERN.test(aliasCase.input);
      expect([aliasCase.why, patternAccepts]).toEqual([aliasCase.why, aliasCase.accepted]);
    }
  });

  it('publishes a pattern that a JSON Schema validator (unicode mode) reads the same way', () => {
    const unicode = new RegExp(CUSTOMER_ALIAS_PATTERN.source, 'u');
    for (const aliasCase of ALIAS_CASES) {
      expect([aliasCase.why, unicode.test(aliasCase.input)]).toEqual([
        aliasCase.why,
        CUSTOMER_ALIAS_PATTERN.test(aliasCase.input),
      ]);
    }
  });
});
