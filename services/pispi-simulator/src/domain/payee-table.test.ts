import { payerBehaviourOf } from './alias-table';
import { payeeBehaviourOf } from './payee-table';

describe('payee table (payout destinations)', () => {
  it.each([
    ['+225 0000000100', { kind: 'receives', name: 'Marchand Test Sika', country: 'CI' }],
    ['+225-00.00 00-01 00', { kind: 'receives', name: 'Marchand Test Sika', country: 'CI' }],
    ['+2250000000123', { kind: 'rejected_at_once', name: 'Compte Test Supprime', reason: 'BE23' }],
    ['+225 0000000106', { kind: 'rejected_by_bank', name: 'Compte Test Bloque', reason: 'AC06' }],
    ['+225 0000000108', { kind: 'rejected_by_bank', name: 'Compte Test Hors Ligne', reason: 'AB08' }],
  ])('%s resolves, with what its bank does', (alias, expected) => {
    expect(payeeBehaviourOf(alias)).toMatchObject(expected);
  });

  it.each(['+225 0000000199', '+225 0000000001', '+2250000000010', 'merchant-code-1'])(
    'knows no other alias (%s), payers included',
    (alias) => {
      expect(payeeBehaviourOf(alias)).toEqual({ kind: 'unknown' });
    },
  );

  it('is its own table: no payout destination is a test payer', () => {
    for (const alias of ['+2250000000100', '+2250000000123', '+2250000000106', '+2250000000108']) {
      expect(payerBehaviourOf(alias)).toEqual({ kind: 'unknown' });
    }
  });

  it('gives names that fit the WebhookEvent client field (35 characters)', () => {
    for (const alias of ['+2250000000100', '+2250000000123', '+2250000000106', '+2250000000108']) {
      const behaviour = payeeBehaviourOf(alias);
      if (behaviour.kind === 'unknown') throw new Error(`${alias} should be known`);
      expect(behaviour.name.length).toBeLessThanOrEqual(35);
    }
  });
});
