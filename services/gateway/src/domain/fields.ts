import { ID_RANDOM_LENGTH } from '@sika/platform/pure';
import { z } from 'zod';

/** Public id formats (spec §2.1, §4.3): what a path or `starting_after` must look like. */
export const PAYMENT_ID_PATTERN = /^pay_[A-Za-z0-9]+$/;
export const BALANCE_TRANSACTION_ID_PATTERN = /^txn_[A-Za-z0-9]+$/;
export const PAYOUT_ID_PATTERN = /^po_[A-Za-z0-9]+$/;
export const EVENT_ID_PATTERN = /^evt_[A-Za-z0-9]+$/;
/**
 * What an event can be about: a payment or a payout, as Sika issues their ids (the filter is checked whole, as
 * the event store checks it, so the document states exactly what is accepted).
 */
export const EVENT_OBJECT_ID_PATTERN = new RegExp(`^(pay|po)_[A-Za-z0-9]{${ID_RANDOM_LENGTH}}$`);

/** Longest URL accepted for return_url and cancel_url: what browsers and proxies reliably carry. */
export const URL_MAX_LENGTH = 2048;

/** ISO 8601 date-time with `Z` or an offset (converted to UTC), e.g. `2026-01-31T12:00:00Z`. */
export function dateTime() {
  return z.iso.datetime({ offset: true });
}

/**
 * An absolute http(s) URL. The customer's browser is sent there from the hosted page, so other schemes
 * (`javascript:`, `data:` …) are refused; the pattern also refuses `http:host` without `//`, which the WHATWG
 * parser would otherwise repair.
 */
export function webUrl() {
  return (
    z
      .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
      .max(URL_MAX_LENGTH)
      .regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\//, { error: 'must be an absolute http or https URL' })
      // The pattern would otherwise be the only thing the OpenAPI document says about the value.
      .meta({ format: 'uri' })
  );
}
