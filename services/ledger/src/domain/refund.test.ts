import { planRefund, validateRefund } from './refund';

describe('planRefund', () => {
  it('moves money owed back between Sika accounts only, balanced, and back again', () => {
    expect(planRefund({ transferId: 'E1234', amount: 500n, stage: 'payable' })).toEqual([
      { account: { owner: 'system', kind: 'scheme_settlement' }, amount: -500n },
      { account: { owner: 'system', kind: 'refunds_payable' }, amount: 500n },
    ]);
    expect(planRefund({ transferId: 'E1234', amount: 500n, stage: 'sent' })).toEqual([
      { account: { owner: 'system', kind: 'refunds_payable' }, amount: -500n },
      { account: { owner: 'system', kind: 'scheme_settlement' }, amount: 500n },
    ]);
  });

  it('refuses an empty amount or transfer id', () => {
    expect(() => validateRefund({ transferId: 'E1234', amount: 0n, stage: 'payable' })).toThrow(/amount/);
    expect(() => validateRefund({ transferId: '', amount: 1n, stage: 'sent' })).toThrow(/end_to_end_id/);
  });
});
