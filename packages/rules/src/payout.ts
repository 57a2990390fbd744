import { parseCustomerAlias } from './alias';

/** The payout statuses of spec §3.3. */
export const PAYOUT_STATUSES = ['pending', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * How a payout was started (spec §2.5 names `automatic`; the rest of the list is Sika's): `automatic` for the
 * daily run, `manual` for POST /v1/payouts.
 */
export const PAYOUT_METHODS = {
  automatic: 'The daily payout of the whole available balance at 06:00 Abidjan time.',
  manual: 'Asked for with POST /v1/payouts.',
} as const;
export type PayoutMethod = keyof typeof PAYOUT_METHODS;

/** A merchant's payout schedule: the daily run (the default), or payouts on demand only. */
export const PAYOUT_SCHEDULES = ['daily', 'manual'] as const;
export type PayoutSchedule = (typeof PAYOUT_SCHEDULES)[number];

/**
 * Why a payout failed: the `failure_code` of a public payout. A small stable vocabulary (only ever added to),
 * each code published with its meaning in the OpenAPI document, mapped from the scheme's PaiementStatutRaison.
 */
export const PAYOUT_FAILURE_CODES = {
  no_account: 'No account answers to the payout account alias any more.',
  invalid_account_number: "The payout account's details are invalid at its bank.",
  account_frozen: 'The payout account is blocked.',
  account_closed: 'The payout account is closed.',
  bank_account_restricted: 'The payout account cannot receive this kind of transfer.',
  amount_limit_exceeded: "The amount is above a limit of the scheme or of the account's bank.",
  bank_unavailable: "The payout account's bank was offline or failed; a later payout may succeed.",
  declined: 'The transfer was refused for a regulatory or fraud-prevention reason.',
  could_not_process: 'The scheme could not process the transfer.',
} as const;
export type PayoutFailureCode = keyof typeof PAYOUT_FAILURE_CODES;

const FAILURE_BY_REASON: Readonly<Record<string, PayoutFailureCode>> = {
  BE23: 'no_account',
  AC03: 'invalid_account_number',
  BE01: 'invalid_account_number',
  AC06: 'account_frozen',
  AC07: 'account_closed',
  AG01: 'bank_account_restricted',
  AM02: 'amount_limit_exceeded',
  AM21: 'amount_limit_exceeded',
  AB08: 'bank_unavailable',
  AB09: 'bank_unavailable',
  AG11: 'bank_unavailable',
  FR01: 'declined',
  RR04: 'declined',
};

/**
 * The failure code of a PaiementStatutRaison; codes about Sika's own side (AB03, AB04, AG10, AM04, DU03), codes
 * of requests-to-pay, and a failure without a reason are `could_not_process`.
 */
export function payoutFailureCodeOf(reasonCode: string | undefined): PayoutFailureCode {
  return (reasonCode !== undefined && FAILURE_BY_REASON[reasonCode]) || 'could_not_process';
}

/** The scheme's directory keys: MBNO (phone), MCOD (merchant code), SHID (36-character account key). */
export const PAYOUT_ALIAS_TYPES = ['phone', 'merchant_code', 'account_key'] as const;
export type PayoutAliasType = (typeof PAYOUT_ALIAS_TYPES)[number];

export interface PayoutAlias {
  type: PayoutAliasType;
  /** What the scheme receives. */
  schemeValue: string;
  /** Safe to show and log. */
  masked: string;
}

const ACCOUNT_KEY = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/**
 * A payout account alias, in the customer alias formats: a phone number is MBNO, a 36-character key in the
 * 8-4-4-4-12 form is SHID, any other identifier a merchant code (MCOD). Undefined when malformed.
 */
export function parsePayoutAlias(raw: string): PayoutAlias | undefined {
  const parsed = parseCustomerAlias(raw);
  if (!parsed.ok) return undefined;
  const { alias } = parsed;
  const type =
    alias.kind === 'phone' ? 'phone' : ACCOUNT_KEY.test(alias.schemeValue) ? 'account_key' : 'merchant_code';
  return { type, schemeValue: alias.schemeValue, masked: alias.masked };
}
