/** What `sika-ops --help` prints, and what follows every argument error on stderr. */
export const USAGE = `Usage: sika-ops <command> [options]

Commands:
  merchant:create --name NAME [--webhook-url URL] [--json]
      Creates a merchant, its test secret key and its test webhook endpoint (with its whsec_ secret).
  merchant:renew-key --merchant ID --mode test|live [--expire-previous-after SECONDS] [--json]
      Issues a new secret key for the mode and revokes the previous one: at once, or SECONDS later (at most
      604800, 7 days) so that the merchant's servers can switch without an outage. A live key needs the
      merchant's activation approved first (merchant:approve).
  merchant:show --merchant ID [--json]
      Shows the merchant, its activation for live use (status and submitted details) and the last four
      characters of its active keys.
  merchant:approve --merchant ID [--json]
      Approves the merchant's pending activation request: live mode opens, and the merchant may then register
      its live payout account. Refused unless the merchant has requested activation (in the dashboard).
  merchant:emails [--merchant ID] [--limit N] [--json]
      Lists the emails recorded for the merchant's account (or for every merchant), most recent first (20 by
      default, at most 100): each sensitive change made in the dashboard, sign-ups, and whether each was sent
      (sent), is waiting (pending), was never sent because no SMTP relay is configured (unsent), was refused
      by the relay (failed) or withdrawn because the change was refused (canceled). --json adds the text.
  webhook:set --merchant ID --mode test|live --url URL [--json]
      Registers or replaces the webhook endpoint of the mode; its secret is kept when only the URL changes.
  payment:simulate --payment ID [--json]
      Test mode: the customer behind alias +225 0000000004 pays the payment's waiting request now, at the
      simulator (as at delivery). The payment then succeeds; money for a payment that can no longer settle is
      never credited.
  payout-account:set --merchant ID --mode test|live --alias ALIAS [--json]
      Registers the payout account of the mode by its PI-SPI alias (a phone number, a merchant code or a
      36-character bank account key). The scheme looks the alias up and gives the holder name, which must then
      be confirmed; until then live payouts are refused (test payouts go to the default test account).
  payout-account:confirm --merchant ID --mode test|live --holder-name NAME [--json]
      Confirms the holder name shown by payout-account:set: the account is verified.
  payout-account:show --merchant ID --mode test|live [--json]
      Shows the payout account of the mode (masked) and the payout schedule.
  payout-schedule:set --merchant ID --mode test|live --schedule daily|manual [--json]
      daily (the default): the whole available balance is paid out every day at 06:00 Abidjan time;
      manual: only payouts asked for with POST /v1/payouts.

  ledger:adjust --merchant ID --mode test|live --amount N --reason TEXT --idempotency-key KEY
                [--operator NAME] [--json]
      Corrects the merchant's available balance by N francs (negative to take money back): an adjustment
      movement the merchant sees, recorded and logged with the reason, the operator (--operator, or
      SIKA_OPERATOR) and the key. Once per key: repeating the command answers the first adjustment. Refused,
      writing nothing, when it would make the available balance negative.

  audit [--mode test|live] [--json]
      Checks the invariants of the books and payments of a mode (test by default) at a quiet moment; exits 1
      and lists the violations when one does not hold.

Options:
  --json       print one JSON object on stdout (nothing else is written there)
  -h, --help   print this help

Secret keys are shown once: store them when they are printed.

Environment:
  MERCHANTS_GRPC_ADDRESS           host:port of the merchants service (default 127.0.0.1:8051)
  PAYMENTS_GRPC_ADDRESS            host:port of the payments service (default 127.0.0.1:8052)
  LEDGER_GRPC_ADDRESS              host:port of the ledger (default 127.0.0.1:8054)
  WEBHOOK_DISPATCHER_GRPC_ADDRESS  host:port of the webhook-dispatcher (default 127.0.0.1:8055)
  PAYOUTS_GRPC_ADDRESS             host:port of the payouts service (default 127.0.0.1:8056)
  SIMULATOR_URL                    the pispi-simulator (default http://127.0.0.1:8090)
  SIKA_OPERATOR                    who runs ledger:adjust, when --operator is not given

Exit status: 0 done, 1 a service refused or failed (code and message on stderr), 2 bad arguments or environment.
`;
