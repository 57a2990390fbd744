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
} as const;

export type AttemptFailureCode = keyof typeof ATTEMPT_FAILURE_CODES;

export const ATTEMPT_FAILURE_CODE_NAMES = Object.keys(ATTEMPT_FAILURE_CODES) as [
  AttemptFailureCode,
  ...AttemptFailureCode[],
];
