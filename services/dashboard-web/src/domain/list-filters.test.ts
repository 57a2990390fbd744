import { AppError } from '@sika/platform/pure';

import { parseListFilters } from './list-filters';

const STATUSES = { param: 'status', values: ['succeeded', 'canceled'] } as const;
const PAY = /^pay_[A-Za-z0-9]+$/;

describe('list filters', () => {
  it('reads status, reference, a range of whole days and the cursor; empty fields are no filter', () => {
    expect(
      parseListFilters(
        {
          status: 'succeeded',
          reference: ' order-1 ',
          created_from: '2026-11-01',
          created_to: '2026-11-02',
          starting_after: 'pay_abc',
        },
        STATUSES,
        PAY,
      ),
    ).toEqual({
      status: 'succeeded',
      reference: 'order-1',
      createdFrom: new Date('2026-11-01T00:00:00Z'),
      createdTo: new Date('2026-11-03T00:00:00Z'),
      startingAfter: 'pay_abc',
    });
    expect(parseListFilters({ status: '', reference: '   ' }, STATUSES, PAY)).toEqual({});
  });

  it.each([
    [{ status: 'paid' }, 'status'],
    [{ created_from: '2026-02-30' }, 'created_from'],
    [{ created_to: 'yesterday' }, 'created_to'],
    [{ created_from: '2026-11-05', created_to: '2026-11-01' }, 'created_to'],
    [{ starting_after: 'po_abc' }, 'starting_after'],
  ])('names the parameter of a wrong filter %p', (query, param) => {
    expect(() => parseListFilters(query, STATUSES, PAY)).toThrow(AppError);
    try {
      parseListFilters(query, STATUSES, PAY);
    } catch (error) {
      expect((error as AppError).param).toBe(param);
    }
  });
});

describe('the filter a list chooses by', () => {
  const TYPES = { param: 'type', values: ['payment', 'payout'] } as const;
  const TXN = /^txn_[A-Za-z0-9]+$/;

  it('reads a movement type under its own name, and ignores a status there', () => {
    expect(parseListFilters({ type: 'payout', status: 'anything' }, TYPES, TXN)).toEqual({ type: 'payout' });
  });

  it('names `type` when the type is unknown', () => {
    expect(() => parseListFilters({ type: 'refund' }, TYPES, TXN)).toThrow(
      /type must be one of payment, payout/,
    );
  });
});
