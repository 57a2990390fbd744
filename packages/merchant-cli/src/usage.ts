import { EVENT_TYPES } from './commands/trigger';

/** What `sika --help` prints, and what follows every argument error on stderr. */
export const USAGE = `Usage: sika <command> [options]

The developer CLI for merchants integrating Sika, in test mode (a test secret key, sk_test_…).

Commands:
  listen --forward-to URL [--events TYPE,…]
      Receives your account's events as they happen and forwards each to URL (e.g.
      http://localhost:3000/webhooks), signed with the webhook secret it prints first; shows each
      delivery's status. ^C stops it.
  listen --print-secret
      Prints only that secret (always the same for a given key), for your server's environment.
  trigger EVENT_TYPE | ALIAS [--amount XOF] [--on-delivery] [--json]
      Creates the test payment or payout that produces the event and waits until it did. Event types:
      ${EVENT_TYPES.join(', ')}.
      Or a payment for a test alias: 01 to 08, or '+225 0000000004' (--on-delivery: an on-delivery payment).
  pay PAYMENT_ID [--json]
      The customer of the payment's request waiting at their bank (aliases …04 and …07) pays it now.
  expire PAYMENT_ID [--json]
      The payment expires now.

Options:
  --api-key KEY     the test secret key (default: $SIKA_SECRET_KEY)
  --api-base URL    where the API answers, without /v1 (default: $SIKA_API_BASE, else http://127.0.0.1:8080)
  --json            print one JSON object on stdout (nothing else is written there)
  -h, --help        print this help

Operators' commands (merchants, keys, payout accounts, audits, over mutual TLS) are another tool: sika-ops.
`;
