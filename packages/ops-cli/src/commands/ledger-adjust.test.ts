import { describeAdjustment, type AdjustmentView } from './ledger-adjust';

const view: AdjustmentView = {
  adjustment_id: 'adj_3kTMd9Qx0bW7vYcN1LzR8aPf',
  merchant_id: 'mer_3kTMd9Qx0bW7vYcN1LzR8aPf',
  livemode: false,
  amount: -500,
  reason: 'Fee charged twice on pay_123',
  requested_by: 'awa',
  idempotency_key: 'ticket-4521',
  created_at: '2026-11-30T09:00:00.000Z',
  balance_transaction_id: 'txn_3kTMd9Qx0bW7vYcN1LzR8aPf',
  created: true,
};

describe('describeAdjustment', () => {
  it('says what was posted, on which balance, why, by whom and under which key', () => {
    expect(describeAdjustment(view)).toBe(
      [
        'Adjustment adj_3kTMd9Qx0bW7vYcN1LzR8aPf posted: -500 XOF on the test available balance of ' +
          'mer_3kTMd9Qx0bW7vYcN1LzR8aPf (movement txn_3kTMd9Qx0bW7vYcN1LzR8aPf).',
        'Reason: Fee charged twice on pay_123',
        'Requested by awa at 2026-11-30T09:00:00.000Z, idempotency key ticket-4521',
      ].join('\n'),
    );
  });

  it('says that a repeated key wrote nothing again', () => {
    expect(describeAdjustment({ ...view, created: false, livemode: true }).split('\n')[0]).toBe(
      'Adjustment adj_3kTMd9Qx0bW7vYcN1LzR8aPf was already posted with this key: nothing was written again. ' +
        'It is -500 XOF on the live available balance of mer_3kTMd9Qx0bW7vYcN1LzR8aPf ' +
        '(movement txn_3kTMd9Qx0bW7vYcN1LzR8aPf).',
    );
  });
});
