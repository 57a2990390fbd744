/**
 * Why an attempt did not go through: the `failure_code` of a public attempt. A small stable vocabulary, part
 * of the contract (only ever added to); each code's meaning is published in the OpenAPI document.
 */
export const ATTEMPT_FAILURE_CODES = {
  alias_unknown: 'No account answers to the alias the customer entered.',
  payer_declined: 'The customer, or their bank on their behalf, refused the request.',
  request_rejected: "The customer's bank rejected the request when it was sent.",
  request_expired: 'The customer did not answer before the request ran out.',
  bank_failure: "A technical failure at the customer's bank or the scheme ended the request.",
  payment_closed: 'The payment closed (canceled or expired) before the request could leave.',
  amount_mismatch: 'The customer paid another amount than asked: never credited, returned to them whole.',
  payee_mismatch: "The money reached another account than Sika's: never credited, returned to the customer.",
} as const;

export type AttemptFailureCode = keyof typeof ATTEMPT_FAILURE_CODES;

export const ATTEMPT_FAILURE_CODE_NAMES = Object.keys(ATTEMPT_FAILURE_CODES) as [
  AttemptFailureCode,
  ...AttemptFailureCode[],
];

/**
 * Money paid on an attempt that must not settle its payment (a duplicate, a payment after the payment closed, a
 * wrong amount) goes back to the customer: the `refund_status` of a public attempt, null when nothing is owed.
 */
export const REFUND_STATUSES = {
  pending: 'The money is owed back to the customer; its return is being sent.',
  sent: 'The money went back to the customer.',
  failed: "The customer's bank kept refusing the return: Sika's operators return the money by other means.",
} as const;

export type RefundStatus = keyof typeof REFUND_STATUSES;

export const REFUND_STATUS_NAMES = Object.keys(REFUND_STATUSES) as [RefundStatus, ...RefundStatus[]];

/**
 * Attempts (by public status) whose request the customer's bank may still pay: sent, or accepted to be paid
 * at delivery. Test mode's "the customer pays now" (alias …04, CLI and dashboard alike) pays the latest one.
 */
const WAITING_AT_THE_BANK: ReadonlySet<string> = new Set(['sent', 'accepted_deferred']);

export function requestWaitingAtTheBank<A extends { status: string }>(attempts: readonly A[]): A | undefined {
  return attempts.filter((attempt) => WAITING_AT_THE_BANK.has(attempt.status)).at(-1);
}
