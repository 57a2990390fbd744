import type { SecretBox } from '@sika/platform';
import type { Selectable } from 'kysely';
import type { DB } from '../generated/database';
import type { Attempt, AttemptFailureCode, AttemptRefund, Payment, RefundStatus } from '../domain/payment';

/**
 * Mapping between the domain's payment and the `payments` / `payment_attempts` rows. An attempt's alias is
 * sealed in its row by `aliases`, with the attempt id as context: a sealed alias copied onto another attempt
 * does not open.
 */

/** A `payment_attempts` row as `json_agg` gives it: timestamps are ISO strings, `refunds` parsed. */
export type AttemptRow = Omit<
  Selectable<DB['payment_attempts']>,
  'refunds' | 'dispatch_after' | 'created_at' | 'updated_at'
> & {
  refunds: RefundRow[];
  dispatch_after: string | null;
  created_at: string;
  updated_at: string;
};

/** One element of `payment_attempts.refunds`. */
interface RefundRow {
  end_to_end_id: string;
  status: string;
  duplicate: boolean;
}

/** A `payments` row with its attempts in sequence order (a JSON array). */
export type PaymentRow = Selectable<DB['payments']> & { attempts: AttemptRow[] };

function metadataOf(value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** The clear alias of a row: opened, or erased (null). */
function payerAliasOf(row: AttemptRow, aliases: SecretBox): string | null {
  return row.payer_alias_sealed === null ? null : aliases.open(row.payer_alias_sealed, row.id);
}

function attemptFromRow(row: AttemptRow, aliases: SecretBox): Attempt {
  return {
    id: row.id,
    sequence: row.sequence,
    txId: row.tx_id,
    status: row.status,
    payerAlias: payerAliasOf(row, aliases),
    payerAliasMasked: row.payer_alias_masked,
    duplicate: row.duplicate,
    failureCode: row.failure_code as AttemptFailureCode | null,
    refunds: row.refunds.map((refund): AttemptRefund => ({
      endToEndId: refund.end_to_end_id,
      status: refund.status as RefundStatus,
      duplicate: refund.duplicate,
    })),
    reasonCode: row.reason_code,
    endToEndId: row.end_to_end_id,
    dispatchAfter: row.dispatch_after === null ? null : new Date(row.dispatch_after),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export function paymentFromRow(row: PaymentRow, aliases: SecretBox): Payment {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    status: row.status,
    amount: row.amount,
    currency: 'XOF',
    mode: row.mode,
    feeRule: { rateBps: row.fee_rate_bps, fixedAmount: row.fee_fixed_amount },
    merchantName: row.merchant_name,
    feeAmount: row.fee_amount,
    netAmount: row.net_amount,
    reference: row.reference,
    description: row.description,
    returnUrl: row.return_url,
    cancelUrl: row.cancel_url,
    checkoutUrl: row.checkout_url,
    metadata: metadataOf(row.metadata),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    attempts: row.attempts.map((attempt) => attemptFromRow(attempt, aliases)),
  };
}

/** New attempts as one array per column, for `unnest`: a single INSERT writes them all. */
export function newAttemptColumns(attempts: readonly Attempt[], aliases: SecretBox) {
  return {
    ...attemptChangeColumns(attempts),
    sequence: attempts.map((attempt) => attempt.sequence),
    txId: attempts.map((attempt) => attempt.txId),
    payerAliasSealed: attempts.map((attempt) =>
      attempt.payerAlias === null ? null : aliases.seal(attempt.payerAlias, attempt.id),
    ),
    payerAliasMasked: attempts.map((attempt) => attempt.payerAliasMasked),
    createdAt: attempts.map((attempt) => attempt.createdAt),
  };
}

/** The columns of attempts that change over their life, one array per column, for `unnest`. */
export function attemptChangeColumns(attempts: readonly Attempt[]) {
  return {
    id: attempts.map((attempt) => attempt.id),
    status: attempts.map((attempt) => attempt.status),
    duplicate: attempts.map((attempt) => attempt.duplicate),
    failureCode: attempts.map((attempt) => attempt.failureCode),
    refunds: attempts.map((attempt) => refundsColumnOf(attempt)),
    reasonCode: attempts.map((attempt) => attempt.reasonCode),
    endToEndId: attempts.map((attempt) => attempt.endToEndId),
    dispatchAfter: attempts.map((attempt) => attempt.dispatchAfter),
    updatedAt: attempts.map((attempt) => attempt.updatedAt),
  };
}

/** The attempt's `refunds` column, as JSON text (compared to tell whether it changed). */
export function refundsColumnOf(attempt: Attempt): string {
  return JSON.stringify(
    attempt.refunds.map((refund): RefundRow => ({
      end_to_end_id: refund.endToEndId,
      status: refund.status,
      duplicate: refund.duplicate,
    })),
  );
}
