import { planRefund, validateRefund } from './refund';

describe('planRefund', () => {
  it('moves money owed back between Sika accounts only, balanced, and back again', () => {
    expect(planRefund({ txId: 'SIKA1', amount: 500n, stage: 'payable' })).toEqual([
      { account: { owner: 'system', kind: 'scheme_settlement' }, amount: -500n },
      { account: { owner: 'system', kind: 'refunds_payable' }, amount: 500n },
    ]);
    expect(planRefund({ txId: 'SIKA1', amount: 500n, stage: 'sent' })).toEqual([
      { account: { owner: 'system', kind: 'refunds_payable' }, amount: -500n },
      { account: { owner: 'system', kind: 'scheme_settlement' }, amount: 500n },
    ]);
  });

  it('refuses an empty amount or tx_id', () => {
    expect(() => validateRefund({ txId: 'SIKA1', amount: 0n, stage: 'payable' })).toThrow(/amount/);
    expect(() => validateRefund({ txId: '', amount: 1n, stage: 'sent' })).toThrow(/tx_id/);
  });
});
