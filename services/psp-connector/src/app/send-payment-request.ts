import { PispiError, type DemandePaiementReponse } from '@sika/pispi';
import { AppError, maskAlias, type Clock, type Logger } from '@sika/platform';
import { ALIAS_PROBLEM_MESSAGES, characterCount, parseCustomerAlias, TEXT_LIMITS } from '@sika/rules';

import { modeOf } from '../domain/mode';
import {
  fingerprintOf,
  isSchemeTxId,
  type PaymentRequestInput,
  type RequestOutcome,
} from '../domain/payment-request';
import { invoiceDeadline, outcomeOfStatut, toDemandePaiement } from '../domain/pispi-transformers';
import type { PaymentRequestStore, Participant, ParticipantDirectory } from './ports';

export interface SendPaymentRequestCommand {
  livemode: boolean;
  txId: string;
  payerAlias: string;
  amount: bigint;
  reason: string | undefined;
  reference: string | undefined;
  expiresAt: Date | undefined;
  onDelivery: boolean;
}

/** statutRaison of a txId the participant has seen before. */
const DUPLICATE_TX_ID = 'DU03';

/**
 * SendPaymentRequest: records the request (its txId unique) before calling the scheme, so every callback
 * maps back to it and a retried call never sends twice: a txId with a recorded outcome gets that outcome
 * again without any scheme call. When a previous call recorded the request but its answer was lost, the
 * scheme is asked (GET) before anything is sent again. The scheme's rejection (REJETE, e.g. BE23) is an
 * outcome, not an error; an unreachable scheme is service_unavailable, to retry with the same txId.
 */
export class SendPaymentRequest {
  constructor(
    private readonly deps: {
      requests: PaymentRequestStore;
      schemes: ParticipantDirectory;
      clock: Clock;
      logger: Logger;
      paymentDeadlineMs: number;
    },
  ) {}

  async execute(command: SendPaymentRequestCommand): Promise<RequestOutcome> {
    const input = validate(command);
    const scheme = this.deps.schemes[input.mode];
    if (!scheme) throw new AppError('service_unavailable', `PI-SPI ${input.mode} mode is not configured.`);
    const fingerprint = fingerprintOf(input);
    const { created, stored } = await this.deps.requests.recordIfAbsent({
      txId: input.txId,
      livemode: command.livemode,
      amount: input.amount,
      fingerprint,
      payerAliasMasked: maskAlias(input.payerAlias),
      onDelivery: input.onDelivery,
      watchUntil: input.onDelivery ? invoiceDeadline(input.expiresAt) : null,
      at: this.deps.clock.now(),
    });
    if (stored.fingerprint !== fingerprint) {
      throw new AppError('idempotency_key_reused', 'This tx_id was already used for a different request.', {
        param: 'tx_id',
      });
    }
    if (stored.outcome) return stored.outcome;

    const log = this.deps.logger.child({
      tx_id: input.txId,
      mode: input.mode,
      payer: maskAlias(input.payerAlias),
    });
    const answer = await this.askScheme(scheme, input, created).catch((error: unknown) => {
      throw schemeFailure(error, log);
    });
    const recorded = await this.deps.requests.recordOutcome(
      input.txId,
      answer.outcome,
      answer.end2endId,
      this.deps.clock.now(),
    );
    const reasonCode = recorded.outcome === 'REJECTED' ? recorded.reasonCode : undefined;
    // A request the scheme took is routine (debug); a rejection and its reason stay visible.
    log[reasonCode === undefined ? 'debug' : 'info'](
      { outcome: recorded.outcome, reason_code: reasonCode },
      'payment request answered',
    );
    return recorded;
  }

  /** A request recorded by an earlier call may have reached the scheme: ask before sending it again. */
  private async askScheme(
    scheme: Participant,
    input: PaymentRequestInput,
    firstCall: boolean,
  ): Promise<{ outcome: RequestOutcome; end2endId: string | undefined }> {
    if (!firstCall) {
      const known = await scheme.client.getDemandePaiement(input.txId);
      if (known) return { outcome: expectOutcome(known.statut, known.statutRaison), end2endId: undefined };
    }
    const demande = toDemandePaiement(input, {
      payeeAlias: scheme.payeeAlias,
      now: this.deps.clock.now(),
      paymentDeadlineMs: this.deps.paymentDeadlineMs,
    });
    const reponse: DemandePaiementReponse = await scheme.client.createDemandePaiement(demande);
    const outcome = expectOutcome(reponse.statut, reponse.statutRaison);
    if (outcome.outcome === 'REJECTED' && outcome.reasonCode === DUPLICATE_TX_ID) {
      // Sika's txIds are unique, so the first copy was ours: a concurrent or earlier call whose answer was
      // lost. Its status is the answer, not the duplicate's rejection.
      const known = await scheme.client.getDemandePaiement(input.txId);
      if (known) return { outcome: expectOutcome(known.statut, known.statutRaison), end2endId: undefined };
    }
    return { outcome, end2endId: reponse.end2endId };
  }
}

function expectOutcome(
  statut: Parameters<typeof outcomeOfStatut>[0],
  raison: string | undefined,
): RequestOutcome {
  const outcome = outcomeOfStatut(statut, raison);
  // INITIE only follows confirmation=true, which Sika never sends: the participant is not behaving as documented.
  if (!outcome)
    throw new Error(`PI-SPI answered statut ${String(statut)} to a request sent without confirmation`);
  return outcome;
}

function schemeFailure(error: unknown, log: Logger): AppError {
  if (error instanceof PispiError && error.retryable) {
    log.warn({ err: error }, 'PI-SPI unavailable; the request may be retried with the same tx_id');
    return new AppError(
      'service_unavailable',
      'The payment scheme is unavailable. Retry with the same tx_id.',
      {
        cause: error,
      },
    );
  }
  log.error({ err: error }, 'PI-SPI refused the request-to-pay as sent');
  return new AppError('internal_error', 'The payment scheme refused the request.', { cause: error });
}

function validate(command: SendPaymentRequestCommand): PaymentRequestInput {
  const invalid = (param: string, message: string): AppError =>
    new AppError('parameter_invalid', message, { param });
  if (!isSchemeTxId(command.txId))
    throw invalid('tx_id', 'tx_id must be 1 to 35 printable characters without spaces.');
  // The contract's alias rule, as payments applied it: the scheme gets its form without separators.
  const alias = parseCustomerAlias(command.payerAlias);
  if (!alias.ok) {
    const code = alias.problem === 'missing' ? 'parameter_missing' : 'parameter_invalid';
    throw new AppError(code, ALIAS_PROBLEM_MESSAGES[alias.problem], { param: 'payer_alias' });
  }
  if (command.amount < 1n || command.amount > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalid('amount', 'amount must be a whole number of XOF, at least 1.');
  }
  if (command.reason !== undefined && characterCount(command.reason) > TEXT_LIMITS.description) {
    throw invalid('reason', `reason is at most ${TEXT_LIMITS.description} characters.`);
  }
  if (command.reference !== undefined && characterCount(command.reference) > TEXT_LIMITS.reference) {
    throw invalid('reference', `reference is at most ${TEXT_LIMITS.reference} characters.`);
  }
  if (command.expiresAt === undefined) {
    throw new AppError('parameter_missing', 'expires_at is required.', { param: 'expires_at' });
  }
  return {
    mode: modeOf(command.livemode),
    txId: command.txId,
    payerAlias: alias.alias.schemeValue,
    amount: command.amount,
    reason: command.reason || undefined,
    reference: command.reference || undefined,
    expiresAt: command.expiresAt,
    onDelivery: command.onDelivery,
  };
}
