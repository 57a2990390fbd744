import { chartDays, chartRange } from './collection-chart';

describe('the collection chart', () => {
  it('covers the last 30 days up to today, Abidjan time (UTC)', () => {
    const range = chartRange(new Date('2026-11-25T23:59:59.999Z'));
    expect(range).toEqual({
      from: new Date('2026-10-27T00:00:00Z'),
      to: new Date('2026-11-26T00:00:00Z'),
    });
    expect(chartRange(new Date('2026-11-26T00:00:00Z')).to).toEqual(new Date('2026-11-27T00:00:00Z'));
  });

  it('gives every day a bar, zero where the ledger reported nothing, across a month end', () => {
    const range = chartRange(new Date('2026-03-01T10:00:00Z'), 3);
    const days = chartDays(range, [{ day: '2026-02-28', collected: 2_500n, paymentCount: 1 }]);
    expect(days).toEqual([
      { day: '2026-02-27', collected: 0n, paymentCount: 0 },
      { day: '2026-02-28', collected: 2_500n, paymentCount: 1 },
      { day: '2026-03-01', collected: 0n, paymentCount: 0 },
    ]);
  });
});
