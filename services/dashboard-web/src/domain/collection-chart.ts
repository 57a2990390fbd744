/** What the chart draws for one day: every day of the range has a bar, an empty day a bar of zero. */
export interface ChartDay {
  /** `YYYY-MM-DD`, Africa/Abidjan (UTC all year). */
  day: string;
  collected: bigint;
  paymentCount: number;
}

export const CHART_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The last `days` days up to and including today's: [start of the first day, start of tomorrow). */
export function chartRange(now: Date, days = CHART_DAYS): { from: Date; to: Date } {
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { from: new Date(tomorrow - days * DAY_MS), to: new Date(tomorrow) };
}

/** One entry per day of the range, in order, filled from the days the ledger reported (the others are zero). */
export function chartDays(
  range: { from: Date; to: Date },
  reported: readonly { day: string; collected: bigint; paymentCount: number }[],
): ChartDay[] {
  const byDay = new Map(reported.map((entry) => [entry.day, entry]));
  const days: ChartDay[] = [];
  for (let time = range.from.getTime(); time < range.to.getTime(); time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    const entry = byDay.get(day);
    days.push({ day, collected: entry?.collected ?? 0n, paymentCount: entry?.paymentCount ?? 0 });
  }
  return days;
}
