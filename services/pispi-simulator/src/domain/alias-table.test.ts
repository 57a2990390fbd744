import { normalizeAlias, payerBehaviourOf } from './alias-table';

describe('test alias table', () => {
  it.each([
    ['+225 0000000001', 'pays'],
    ['+2250000000001', 'pays'],
    ['+225-00.00 00-00 01', 'pays'],
    ['+225 0000000002', 'refuses'],
    ['+225 0000000003', 'ignores'],
    ['+225 0000000004', 'defers'],
    ['+225 0000000006', 'fails'],
    ['+225 0000000005', 'unknown'],
    ['+225 0700000001', 'unknown'],
    ['merchant-alias-uuid', 'unknown'],
  ])('%s → %s', (alias, kind) => {
    expect(payerBehaviourOf(alias).kind).toBe(kind);
  });

  it('removes only spaces, dots and hyphens', () => {
    expect(normalizeAlias(' +225 07.00-00\t01 ')).toBe('+22507000001');
    expect(normalizeAlias('a_b/c')).toBe('a_b/c');
  });

  it('gives payer names that fit the WebhookEvent client field', () => {
    for (const alias of ['+2250000000001', '+2250000000002', '+2250000000003']) {
      const behaviour = payerBehaviourOf(alias);
      if (behaviour.kind === 'unknown') throw new Error(`${alias} should be known`);
      expect(behaviour.payer.name.length).toBeLessThanOrEqual(35);
    }
  });
});
