/**
 * The daily automatic payout runs at 06:00 Abidjan time. Africa/Abidjan is UTC+0 all year (no daylight
 * saving), so 06:00 there is 06:00 UTC.
 */
export const DAILY_PAYOUT_HOUR_UTC = 6;

/**
 * The day (`YYYY-MM-DD`) whose run is due at `now`: today once 06:00 has passed, else yesterday. A run missed
 * while every replica was down is made when one comes back, the same day.
 */
export function payoutDayAt(now: Date): string {
  const runTime = new Date(now);
  runTime.setUTCHours(DAILY_PAYOUT_HOUR_UTC, 0, 0, 0);
  if (now.getTime() < runTime.getTime()) runTime.setUTCDate(runTime.getUTCDate() - 1);
  return runTime.toISOString().slice(0, 10);
}
