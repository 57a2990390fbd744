import type {
  DemandePaiementRequest,
  DemandePaiementStatut,
  PaiementImmediatAvecConfirmation,
  PaiementImmediatSansConfirmation,
  Problem7807,
  WebhookEvent,
  WebhooksEvents,
} from '@sika/pispi';

import { type PayerDecision, type PaymentRequestInput, type RequestOutcome } from './payment-request';
import { meaningOfReason } from './reason-codes';

/**
 * The PI-SPI connector's transformers (after hyperswitch's): pure mappings between Sika's request-to-pay and
 * the API Business, in both directions. No I/O, so every rule is unit-tested.
 */

/** `refDocNumero` holds 35 characters; a longer merchant reference is cut there. */
export const REF_DOC_NUMERO_MAX = 35;

/** Reason code when the scheme rejects without saying why. */
export const UNSPECIFIED_REASON = 'UNSPECIFIED';

export interface DemandeSettings {
  /** Sika's own account alias in this mode: where the funds go. */
  payeeAlias: string;
  now: Date;
  /** How long the payer has to answer (the document gives categorie 521 about two minutes). */
  paymentDeadlineMs: number;
}

/**
 * The request's dateLimitePaiement: the scheme's answer window, cut at the payment's own deadline so that
 * the payer's bank never takes money for a payment that has expired.
 */
export function paymentDeadline(input: PaymentRequestInput, settings: DemandeSettings): Date {
  const window = settings.now.getTime() + settings.paymentDeadlineMs;
  return new Date(Math.min(window, input.expiresAt.getTime()));
}

/** A day in Abidjan (UTC all year), as the API Business writes its `date` fields. */
export function abidjanDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The end of an invoice's last day (its dateLimitePaiement, the day of `expiresAt`): after it, no payment. */
export function invoiceDeadline(expiresAt: Date): Date {
  return new Date(new Date(`${abidjanDate(expiresAt)}T00:00:00Z`).getTime() + DAY_MS);
}

/**
 * The `POST /demandes-paiements` body, sent to the payer at once. Immediate payments are e-commerce
 * immediate requests (521). A payment on delivery is an invoice (401) whose payer may accept now and pay
 * later: its deadlines are dates, the day of the payment's expires_at, so the payer answers and pays by then.
 */
export function toDemandePaiement(
  input: PaymentRequestInput,
  settings: DemandeSettings,
): DemandePaiementRequest {
  const common = {
    txId: input.txId,
    payeurAlias: input.payerAlias,
    payeAlias: settings.payeeAlias,
    confirmation: false,
    montant: Number(input.amount),
    ...(input.reason === undefined ? {} : { motif: input.reason }),
    ...(input.reference === undefined ? {} : { refDocNumero: input.reference.slice(0, REF_DOC_NUMERO_MAX) }),
  };
  if (input.onDelivery) {
    const day = abidjanDate(input.expiresAt);
    return { ...common, categorie: '401', dateLimitePaiement: day, dateLimiteReponse: day };
  }
  return {
    ...common,
    categorie: '521',
    dateLimitePaiement: paymentDeadline(input, settings).toISOString(),
  };
}

/** `motif` holds 140 characters (code points, as JSON Schema counts them); a longer reason is cut there. */
export const MOTIF_MAX = 140;

const cutMotif = (reason: string): string => Array.from(reason).slice(0, MOTIF_MAX).join('');

/** A payout's transfer as SendPayoutTransfers reads it. */
export interface PayoutTransferInput {
  payoutId: string;
  payeeAlias: string;
  amount: bigint;
  reason: string;
}

/**
 * The `POST /paiements` body of a payout: `txId` = the payout id, from Sika's own account of the mode (the one
 * payments are collected on) to the payout account's alias, sent at once (`confirmation: false`): the account
 * was verified by its name lookup when the merchant set it.
 */
export function toPayoutPaiement(
  transfer: PayoutTransferInput,
  sikaAccountAlias: string,
): PaiementImmediatSansConfirmation {
  return {
    txId: transfer.payoutId,
    payeurAlias: sikaAccountAlias,
    payeAlias: transfer.payeeAlias,
    montant: Number(transfer.amount),
    confirmation: false,
    ...(transfer.reason === '' ? {} : { motif: cutMotif(transfer.reason) }),
  };
}

/** What a name lookup says it is for, on the business's statement should the participant show it. */
export const LOOKUP_REASON = 'Sika: verification du compte de versement';

/**
 * The `POST /paiements` body of a name lookup: 1 franc with `confirmation: true`, answered INITIE with the
 * holder's name and never confirmed, so nothing is ever sent.
 */
export function toNameLookup(
  txId: string,
  alias: string,
  sikaAccountAlias: string,
): PaiementImmediatAvecConfirmation {
  return {
    txId,
    payeurAlias: sikaAccountAlias,
    payeAlias: alias,
    montant: 1,
    confirmation: true,
    motif: LOOKUP_REASON,
  };
}

/**
 * What an invoice's status says that no callback does: IRREVOCABLE before any money is the payer's
 * acceptance (the API Business has no event for it); REJETE is its end, classified like a callback's motif.
 */
export function decisionOfStatut(
  statut: DemandePaiementStatut | undefined,
  statutRaison: string | undefined,
): PayerDecision | undefined {
  if (statut === 'IRREVOCABLE') return 'ACCEPTED_DEFERRED';
  if (statut !== 'REJETE') return undefined;
  const meaning = meaningOfReason(statutRaison);
  return meaning === 'already_answered' ? undefined : DECISION_OF_REJECTION[meaning];
}

/**
 * The request's fate from its status (the POST answer or a GET): ENVOYE is sent, and IRREVOCABLE is sent
 * and already paid (the callback follows); REJETE carries its reason. INITIE, a request waiting for a
 * confirmation Sika never asks for, has no outcome.
 */
export function outcomeOfStatut(
  statut: DemandePaiementStatut | undefined,
  statutRaison: string | undefined,
): RequestOutcome | undefined {
  switch (statut) {
    case 'ENVOYE':
    case 'IRREVOCABLE':
      return { outcome: 'SENT' };
    case 'REJETE':
      return { outcome: 'REJECTED', reasonCode: statutRaison ?? UNSPECIFIED_REASON };
    default:
      return undefined;
  }
}

/** What a callback event says about a request-to-pay Sika sent, or why it says nothing. */
export type PispiEventMeaning =
  | {
      kind: 'decision';
      txId: string;
      decision: PayerDecision;
      reasonCode: string | undefined;
      endToEndId: string;
      amount: bigint;
      occurredAt: Date;
      /** The event names another payee than Sika's alias: money Sika must not credit. */
      payeeMismatch: boolean;
    }
  | {
      /** The participant's verdict on a fund return; it names the returned payment's end-to-end id. */
      kind: 'fund_return';
      end2endId: string;
      verdict: 'sent' | 'rejected';
      reasonCode: string | undefined;
      occurredAt: Date;
    }
  | {
      /** The verdict on a payout's transfer: Sika is the payer, `txId` is the payout id. */
      kind: 'payout_transfer';
      payoutId: string;
      end2endId: string;
      verdict: 'paid' | 'failed';
      reasonCode: string | undefined;
    }
  | { kind: 'ignored' };

const DECISION_OF_REJECTION = {
  alias_unknown: 'REJECTED',
  declined: 'REJECTED',
  expired: 'EXPIRED',
  failed: 'FAILED',
} as const satisfies Record<string, PayerDecision>;

/**
 * PAIEMENT_RECU: the payer accepted and the funds arrived (for a 521 request the two are one step).
 * RTP_REJETE: the request ended without money; its motif says whether the payer declined, the request
 * expired or a bank failed (reason-codes.ts), and an "already answered" motif adds nothing to the first
 * answer. RETOUR_ENVOYE and RETOUR_REJETE are the verdict on a fund return Sika sent; PAIEMENT_ENVOYE and
 * PAIEMENT_REJETE the verdict on a payout's transfer (Sika pays; its motif is the reason of a rejection).
 * Every other code (cancellations, returns received) is not Sika's business. `amount` must already be known to be whole (wholeAmount).
 */
export function meaningOfEvent(event: WebhookEvent, payeeAlias: string | undefined): PispiEventMeaning {
  const common = {
    txId: event.txId,
    endToEndId: event.end2endId,
    amount: BigInt(event.montant),
    occurredAt: new Date(event.evDate),
    payeeMismatch: event.alias !== undefined && payeeAlias !== undefined && event.alias !== payeeAlias,
  };
  switch (event.evCode) {
    case 'PAIEMENT_RECU':
      return { kind: 'decision', decision: 'PAID', reasonCode: undefined, ...common };
    case 'RTP_REJETE': {
      const reasonCode = event.motif?.trim() || UNSPECIFIED_REASON;
      const meaning = meaningOfReason(reasonCode);
      if (meaning === 'already_answered') return { kind: 'ignored' };
      return { kind: 'decision', decision: DECISION_OF_REJECTION[meaning], reasonCode, ...common };
    }
    case 'RETOUR_ENVOYE':
    case 'RETOUR_REJETE':
      return {
        kind: 'fund_return',
        end2endId: event.end2endId,
        verdict: event.evCode === 'RETOUR_ENVOYE' ? 'sent' : 'rejected',
        reasonCode: event.evCode === 'RETOUR_REJETE' ? event.motif?.trim() || UNSPECIFIED_REASON : undefined,
        occurredAt: common.occurredAt,
      };
    case 'PAIEMENT_ENVOYE':
    case 'PAIEMENT_REJETE':
      return {
        kind: 'payout_transfer',
        payoutId: event.txId,
        end2endId: event.end2endId,
        verdict: event.evCode === 'PAIEMENT_ENVOYE' ? 'paid' : 'failed',
        reasonCode:
          event.evCode === 'PAIEMENT_REJETE' ? event.motif?.trim() || UNSPECIFIED_REASON : undefined,
      };
    default:
      return { kind: 'ignored' };
  }
}

/**
 * What of a participant's RFC 7807 problem goes in a log line: its status and words, never its
 * invalid-params, whose reasons may quote the alias that was sent.
 */
export function loggableProblem(error: { status: number; problem: Problem7807 }) {
  return { status: error.status, title: error.problem.title, detail: error.problem.detail };
}

/** The callback event codes meaningOfEvent reads: what Sika's webhook registration asks for. */
export const HANDLED_EVENT_CODES = [
  'PAIEMENT_RECU',
  'RTP_REJETE',
  'RETOUR_ENVOYE',
  'RETOUR_REJETE',
  'PAIEMENT_ENVOYE',
  'PAIEMENT_REJETE',
] as const satisfies readonly WebhooksEvents[];
