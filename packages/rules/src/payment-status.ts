/** Spec §3.1: a payment in one of these statuses never changes again (and can no longer be canceled). */
const FINAL_PAYMENT_STATUSES: ReadonlySet<string> = new Set([
  'succeeded',
  'declined',
  'expired',
  'canceled',
  'failed',
]);

export function isFinalPaymentStatus(status: string): boolean {
  return FINAL_PAYMENT_STATUSES.has(status);
}
