import { ERROR_CATALOG } from '@sika/platform';
import { PAYOUT_FAILURE_CODES, PAYOUT_METHODS } from '@sika/rules';

import type { RateLimitPolicy } from '@sika/platform';

export interface Decision {
  /** Where the spec leaves it open. */
  spec: string;
  topic: string;
  decision: string;
}

/**
 * What the spec leaves "not shown" for this surface, and what Sika decided. Published in the OpenAPI
 * document (`x-sika-decisions` and the description) so integrators read the same thing the code does.
 */
export function decisions(
  policies: { test: RateLimitPolicy; live: RateLimitPolicy },
  authFailureLimit: RateLimitPolicy,
): Decision[] {
  const perWindow = (policy: RateLimitPolicy) => `${policy.limit} requests per ${policy.windowMs / 1000} s`;
  return [
    {
      spec: '§4',
      topic: 'Success status codes',
      decision: 'Every success answers 200, payment creation included (as Stripe does).',
    },
    {
      spec: '§2.2',
      topic: 'Customer alias spellings',
      decision:
        'A phone alias may hold spaces (no-break spaces included), dots and hyphens anywhere: they are ignored, ' +
        'so +225 07.00.00.00.01 and +2250700000001 are the same payer; spaces around an identifier are ignored. ' +
        'The hosted page and the API accept exactly the same aliases.',
    },
    {
      spec: '§8',
      topic: 'Control characters in text',
      decision:
        'Text fields (reference, description, metadata keys and values, query parameters, Idempotency-Key) ' +
        'refuse C0 control characters (U+0000 to U+001F) and unpaired surrogates: 400 parameter_invalid naming ' +
        'the field; the pattern of each field in this document says the same.',
    },
    {
      spec: '§5.6',
      topic: 'Missing or invalid key',
      decision:
        '401 authentication_error: api_key_missing without an Authorization header (or with an empty bearer ' +
        'token); api_key_invalid for another scheme, a malformed, unknown or revoked key. A gateway reuses ' +
        "merchants' answer for a valid key for at most one second (KEY_CACHE_TTL): a key replaced by a renewal " +
        'stops working within a second of the time the renewal chose, on every gateway. Invalid keys are never ' +
        'cached.',
    },
    {
      spec: '§1, §5',
      topic: 'Renewing a key without an outage',
      decision:
        'Renewing a secret key (dashboard, or an operator) lets the merchant choose when the previous key stops: ' +
        'at once, or up to 7 days later (1 hour, 24 hours, 3 or 7 days in the dashboard), as Stripe does. Until ' +
        'then both keys work; the keys page shows the previous key and when it stops. Renewing again stops any ' +
        'previous key still working at once: at most two keys of a mode work at a time.',
    },
    {
      spec: '§7',
      topic: 'Error body and input errors',
      decision:
        'Every error is {"error": {"type", "code", "message", "param"?, "request_id"}}. Invalid input is 400 ' +
        'with param: parameter_missing, parameter_invalid, parameter_unknown (unknown body fields and unknown ' +
        'query parameters alike), invalid_json; nested params are written metadata[key]. A body must be JSON ' +
        '(Content-Type: application/json), at most 100 kB (413 body_too_large), uncompressed (415). ' +
        `too_many_attempts is ${ERROR_CATALOG.too_many_attempts.httpStatus}, alias_unknown ` +
        `${ERROR_CATALOG.alias_unknown.httpStatus}. Another method on a known path is 405 method_not_allowed.`,
    },
    {
      spec: '§4.3, §4.4',
      topic: 'Ids that do not match the pattern; records of another merchant or mode',
      decision:
        '404 resource_missing (param id), exactly like an id that does not exist; an id that does not match ' +
        'the pattern is not even looked up.',
    },
    {
      spec: '§4.2, §4.6, §4.8',
      topic: 'Unknown list cursor',
      decision:
        'A starting_after naming no record of the merchant and mode (unknown, or of another merchant or mode) ' +
        'is 400 resource_missing with param starting_after, on every list, as Stripe answers: the request is ' +
        'at fault, not the list. 404 stays for a path that names nothing.',
    },
    {
      spec: '§1, §7',
      topic: 'alias_unknown at creation',
      decision:
        'A payment created with a customer_alias the scheme does not know is refused: ' +
        `${ERROR_CATALOG.alias_unknown.httpStatus} alias_unknown with param customer_alias. The creation waits ` +
        "for the bank's first answer (up to 3 seconds), and nothing is left afterwards: no payment, no event, " +
        'and the Idempotency-Key is free again, so the corrected request may reuse it. Should the bank answer ' +
        'later than that, the payment is answered created and its attempt ends failed with failure_code ' +
        'alias_unknown, as on the hosted page, where an unknown alias is ' +
        `${ERROR_CATALOG.alias_unknown.httpStatus} alias_unknown shown to the customer with the form again.`,
    },
    {
      spec: '§2.1, §3.2',
      topic: 'Attempt failure codes and failed',
      decision:
        'failure_code is one of alias_unknown, payer_declined, request_rejected, request_expired, ' +
        'bank_failure, payment_closed (meanings in the PaymentAttempt schema). A technical failure at the ' +
        "customer's bank or the scheme (reason codes AG10, AG11, AB03, AB04, AB08, AB09, AM04, IRNR) makes the " +
        'payment failed with payment.failed, whatever other attempts remain; a refusal (BE05, AM09, FR01 ...) ' +
        'never does. docs/testing.md maps every reason code of the scheme.',
    },
    {
      spec: '§2.1, §4.1',
      topic: 'checkout_url',
      decision:
        'checkout_url is <hosted page origin>/pay/<payment id>/<token>: a 32-character token derived from the ' +
        "payment id with a key only Sika holds (HMAC-SHA256). Like Stripe's client_secret it is the customer's " +
        'key to the page: send the URL to that customer only. The payment id alone does not open the page; a ' +
        'missing or wrong token is the same 404 as an unknown payment, and every request the page makes carries ' +
        'the token too. It never changes for a payment, and webhooks carry the same URL.',
    },
    {
      spec: '§8',
      topic: 'Hosted page limits',
      decision:
        "By default the hosted page takes at most 20 alias submissions per 10 minutes from one customer's address " +
        '(successful or not: each may send a request to pay to someone), then answers 429 with Retry-After ' +
        'and a page saying so. Its live status stream is refused with 503 and Retry-After beyond 10 open streams ' +
        'per address or 500 per server: the page then reloads itself every few seconds instead.',
    },
    {
      spec: '§3.2',
      topic: 'Deadline of a request',
      decision:
        "The deadline sent to the customer's bank is the earlier of two minutes and the payment's expires_at, " +
        'so nobody can pay a payment that has expired. A new attempt with less than 30 seconds left before ' +
        `expires_at is refused with ${ERROR_CATALOG.payment_expiring.httpStatus} payment_expiring; the hosted page then shows ` +
        'the payment as expired.',
    },
    {
      spec: '§1 step 5, §2.4',
      topic: "When a payment's credit appears",
      decision:
        "A payment's success and its credit are one decision: the credit (a payment movement and a negative fee " +
        'movement) is booked once, from the same committed event that payment.succeeded delivers. It normally shows ' +
        'in GET /v1/balance and /v1/balance_transactions before the webhook arrives; while the books are briefly ' +
        'unavailable it appears as soon as they are back (seconds), never twice and never lost. A cancel that ' +
        'arrives after the payment succeeded answers 409 payment_already_final, whatever state the books are in.',
    },
    {
      spec: '§3.2 rules 3 and 4',
      topic: 'Money paid by mistake',
      decision:
        'Money that arrives on an attempt that must not settle the payment (a duplicate, a payment after the ' +
        'payment was canceled, expired, declined or failed, another amount or payee than asked) is never credited: it ' +
        "is returned whole to the customer through PI-SPI's fund return, sent again while their bank rejects " +
        'it. The attempt shows it in refund_status (pending, sent, failed); a wrong amount or payee also makes ' +
        'the attempt failed with failure_code amount_mismatch or payee_mismatch. payment.duplicate_refunded is sent once the return ' +
        "of a duplicate's money is sent; the payment's status never changes for a refund.",
    },
    {
      spec: '§8',
      topic: 'Rate limits',
      decision:
        `Per API key, in fixed windows: test mode ${perWindow(policies.test)}, live mode ` +
        `${perWindow(policies.live)}. Every authenticated answer carries RateLimit-Limit, ` +
        'RateLimit-Remaining and RateLimit-Reset (seconds); beyond the limit, 429 rate_limited with ' +
        'Retry-After (seconds). If the limiter itself is unavailable, requests are served without these headers.',
    },
    {
      spec: '§5.6, §8',
      topic: 'Failed authentications per address',
      decision:
        `At most ${authFailureLimit.limit} failed authentications (401 of any kind) per client address per ` +
        `${authFailureLimit.windowMs / 1000} s, in fixed windows. Beyond, every request from that address ` +
        'that fails to authenticate is answered 429 rate_limited with Retry-After (seconds until the window ' +
        'ends) and without RateLimit headers, while a valid key is still served: servers still sending a ' +
        'replaced key never lock out a valid one behind the same address. Successful requests never count. The ' +
        "address is the connection's, or the client's as Sika's load balancer reports it. If the limiter is " +
        'unavailable, failed authentications are not limited.',
    },
    {
      spec: '§2.2, §3.1, §8',
      topic: 'On-delivery payments and the 24-hour rule of PI-SPI',
      decision:
        'An on_delivery payment is a promise the customer accepts now and pays later, which PI-SPI allows only ' +
        'when the answer is due at least 24 hours ahead. Its expires_at must therefore be between 24 hours and ' +
        '30 days from now, else 400 parameter_invalid naming expires_at. A request that leaves later (an ' +
        'alias entered on the hosted page) with less than 24 hours left cannot be scheduled by the customer: ' +
        'they pay it at once or not at all, and the payment goes from request_sent to succeeded without ' +
        'accepted_deferred.',
    },
    {
      spec: '§2.2, §8',
      topic: 'Limits the spec does not give',
      decision:
        'amount at most 9007199254740991 (2^53 - 1, exact in JSON). metadata keys 1 to 40 characters. ' +
        'return_url and cancel_url absolute http or https URLs of at most 2048 characters. Lengths count ' +
        'Unicode characters (code points). Date-times accept Z or an offset and are converted to UTC. The ' +
        'expires_at bounds are inclusive and measured when the request is received.',
    },
    {
      spec: '§4.1, §4.4',
      topic: 'Idempotency',
      decision:
        'The same body means the same fields after validation: key order, whitespace, null versus absent and ' +
        'defaults written out or not make no difference. Keys are scoped to the merchant and the mode of the ' +
        'API key. A second request while the first with the same key is running gets 409 ' +
        'idempotency_key_in_use. Cancel accepts the header too. The shape of the body is validated before the ' +
        'key is looked up, rules that depend on the time (the expires_at bounds) only for a new payment: a ' +
        'replay answers the payment even once its expires_at has left the bounds.',
    },
    {
      spec: '§2.4',
      topic: 'Adjustments',
      decision:
        "An adjustment is a correction of the available balance posted by Sika's operators, with a reason they " +
        "record on Sika's side: positive or negative, never making available negative. Its source_id is its own " +
        'id, adj_ followed by letters and digits (there is no adjustment resource to fetch); it appears in ' +
        'GET /v1/balance_transactions (type adjustment) and in the dashboard, and sends no event.',
    },
    {
      spec: '§4.7',
      topic: 'Idempotency-Key on payouts',
      decision:
        'Required on POST /v1/payouts: without it, 400 parameter_missing (param Idempotency-Key), since a retry ' +
        "without a key could pay the merchant's money out twice. A payout refused for balance_insufficient leaves " +
        'nothing behind, its key included: the same key may be sent again once the balance allows.',
    },
    {
      spec: '§4.7, §7',
      topic: 'Payout amount and balance errors',
      decision:
        'The body is optional; absent, {} and {"amount": null} all pay out the whole available balance. More ' +
        `than available, or an empty balance: ${ERROR_CATALOG.balance_insufficient.httpStatus} balance_insufficient ` +
        '(param amount), nothing reserved. In live mode the payout account is checked first: 403 ' +
        'payout_account_missing, whatever the balance.',
    },
    {
      spec: '§4.7 (silent)',
      topic: 'Cool-down of a new live payout account',
      decision:
        'A live payout account receives nothing for 24 h after its holder name is confirmed: POST /v1/payouts is ' +
        `${ERROR_CATALOG.payout_account_cooling_down.httpStatus} payout_account_cooling_down (its message says ` +
        'when the cool-down ends), and the daily run leaves the balance for a later day. Someone who took over a ' +
        'dashboard session to swap the account cannot pay themselves before the owner can notice and undo it.',
    },
    {
      spec: '§2.5',
      topic: 'Payout method, destination and failure codes',
      decision:
        `method is ${Object.keys(PAYOUT_METHODS).join(' or ')} (automatic: the daily run at 06:00 Abidjan time; ` +
        'manual: POST /v1/payouts). destination is {type, alias, holder_name}: the PI-SPI alias kind (phone = ' +
        'MBNO, merchant_code = MCOD, account_key = SHID), the alias masked, and the holder name the scheme gave; ' +
        `never account data in clear. failure_code is one of ${Object.keys(PAYOUT_FAILURE_CODES).join(', ')} ` +
        "(meanings in the Payout schema), mapped from the scheme's PaiementStatutRaison (table in services/payouts/README.md).",
    },
    {
      spec: '§1, §3.3',
      topic: 'Payout accounts and the daily payout',
      decision:
        'A payout account is a PI-SPI alias, verified when the scheme resolves it to a holder name (a name lookup ' +
        'that moves no money) and that name is confirmed. In test mode every merchant has a working test payout ' +
        'account without registering one. The daily run pays the whole available balance of every merchant ' +
        'whose schedule is daily (the default) once per day, at 06:00 Africa/Abidjan (UTC+0); a run missed while ' +
        'Sika was down is made when it comes back, the same day. New money after the run waits for the next day.',
    },
    {
      spec: '§1, §6',
      topic: 'Webhooks when going live',
      decision:
        "The live webhook endpoint starts with the test endpoint's URL when it is created (the first time the " +
        'merchant reads or rolls the live secret, or sets the endpoint without a URL): following the going-live ' +
        'steps, live events reach the URL already in use, signed with the live secret. Whenever an endpoint ' +
        'gets a URL, the events of its mode stored while it had none, at most 3 days old, are sent at once, ' +
        'oldest first; older ones can be resent from the dashboard.',
    },
    {
      spec: '§2.6, §6',
      topic: 'Test events and unknown event types',
      decision:
        'A merchant can send their endpoint a test event (from the dashboard): type webhook.test, in the ' +
        'envelope of every event (id evt_…, object "event", type, created_at, livemode), with data.object ' +
        '{"object": "webhook_test", "message": "…"}. It concerns no payment or payout and is signed, retried ' +
        'and resendable like any event. Receivers handle the types they know and answer 2xx to the others, ' +
        'since Sika may add event types.',
    },
    {
      spec: '§2.6, §6',
      topic: 'Events API',
      decision:
        "As Stripe: GET /v1/events lists the events sent to the webhook endpoint of the key's mode (webhook.test " +
        'included), in the list envelope, with the filters type, object_id, created_from (inclusive), ' +
        'created_to (exclusive), limit and starting_after; GET /v1/events/{id} answers an event with the same ' +
        "JSON as its deliveries. The dashboard shows the same events from the same store. Another merchant's " +
        "or mode's event is 404 resource_missing; an unknown filter value is 400 parameter_invalid naming it. " +
        'To recover missed webhooks, list from a little before the last event processed and skip the ids ' +
        'already handled.',
    },
    {
      spec: '§6',
      topic: 'Event retention',
      decision:
        'Every event stays readable through the events API for at least 30 days after its created_at: the ' +
        'event store refuses to delete a younger one (a database trigger), and today nothing deletes older ' +
        'ones either. Resending from the dashboard keeps the same event.',
    },
    {
      spec: '§2.6, §2.7',
      topic: 'Event ordering',
      decision:
        'Events are ordered by created_at, the moment the change happened (not when the event was stored), ' +
        'most recent first, ties broken by id. An event is listed once it is stored, which may be a moment ' +
        'after later events were: a poller re-reads a short window (created_from a minute before the latest ' +
        'event it saw) rather than only what comes after the newest id, as sika listen does.',
    },
    {
      spec: '§6',
      topic: 'Events of one payment or payout',
      decision:
        'object_id (a pay_ or po_ id) on GET /v1/events keeps only the events whose data.object is that ' +
        'record: its whole history, most recent first, in the same pages. Any other shape of id is 400 ' +
        'parameter_invalid (param object_id); a record without events, or of another mode, lists nothing.',
    },
    {
      spec: '§1',
      topic: 'Test helpers',
      decision:
        'What the customer or time does to a test payment can be done at once through the API, under ' +
        "/v1/test_helpers (Stripe's naming): POST /v1/test_helpers/payments/{id}/pay (the customer of a request " +
        'waiting at their bank, aliases +225 0000000004 and +225 0000000007, pays it now; the payment changes ' +
        'by the ordinary path a moment later) and POST /v1/test_helpers/payments/{id}/expire (a payment that ' +
        'is not final expires now, expires_at moved to now). A live key is 403 test_mode_only; nothing ' +
        'to pay is 409 no_request_waiting; a final payment cannot expire (409 payment_already_final).',
    },
  ];
}
