import type {
  DemandePaiementRequest,
  DemandePaiementStatut,
  WebhookEvent,
  WebhooksEvents,
} from '@sika/pispi';

import { type PayerDecision, type PaymentRequestInput, type RequestOutcome } from './payment-request';

/**
 * The PI-SPI connector's transformers (after hyperswitch's): pure mappings between Sika's request-to-pay and
 * the API Business, in both directions. No I/O, so every rule is unit-tested.
 */

/** `refDocNumero` holds 35 characters; a longer merchant reference is cut there. */
export const REF_DOC_NUMERO_MAX = 35;

/** Reason code when the scheme rejects without saying why. */
export const UNSPECIFIED_REASON = 'UNSPECIFIED';

/** The rejection reason meaning the request expired without an answer (Already Expired RTP). */
const EXPIRED_REASON = 'AEXR';

export interface DemandeSettings {
  /** Sika's own account alias in this mode: where the funds go. */
  payeeAlias: string;
  now: Date;
  /** dateLimitePaiement = now + this (the document gives categorie 521 two minutes). */
  paymentDeadlineMs: number;
}

/** The `POST /demandes-paiements` body: e-commerce immediate (521), sent to the payer at once. */
export function toDemandePaiement(
  input: PaymentRequestInput,
  settings: DemandeSettings,
): DemandePaiementRequest {
  return {
    txId: input.txId,
    payeurAlias: input.payerAlias,
    payeAlias: settings.payeeAlias,
    confirmation: false,
    montant: Number(input.amount),
    categorie: '521',
    dateLimitePaiement: new Date(settings.now.getTime() + settings.paymentDeadlineMs).toISOString(),
    ...(input.reason === undefined ? {} : { motif: input.reason }),
    ...(input.reference === undefined ? {} : { refDocNumero: input.reference.slice(0, REF_DOC_NUMERO_MAX) }),
  };
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
export type SchemeEventMeaning =
  | {
      kind: 'decision';
      txId: string;
      decision: PayerDecision;
      reasonCode: string | undefined;
      endToEndId: string;
      amount: bigint;
      occurredAt: Date;
    }
  | { kind: 'ignored' };

/**
 * PAIEMENT_RECU: the payer accepted and the funds arrived (for a 521 request the two are one step).
 * RTP_REJETE: the payer refused or the request failed; AEXR means it expired. Every other code concerns
 * transfers Sika makes or receives otherwise (payouts, fund returns, cancellations): not a request's answer.
 * `amount` must already be known to be whole (wholeAmount).
 */
export function meaningOfEvent(event: WebhookEvent): SchemeEventMeaning {
  const common = {
    txId: event.txId,
    endToEndId: event.end2endId,
    amount: BigInt(event.montant),
    occurredAt: new Date(event.evDate),
  };
  switch (event.evCode) {
    case 'PAIEMENT_RECU':
      return { kind: 'decision', decision: 'PAID', reasonCode: undefined, ...common };
    case 'RTP_REJETE': {
      const reasonCode = event.motif?.trim() || UNSPECIFIED_REASON;
      const decision = reasonCode === EXPIRED_REASON ? 'EXPIRED' : 'REJECTED';
      return { kind: 'decision', decision, reasonCode, ...common };
    }
    default:
      return { kind: 'ignored' };
  }
}

/** XOF has no decimals: a callback amount must be a whole, safe number to become an int64. */
export function isWholeAmount(montant: number): boolean {
  return Number.isSafeInteger(montant) && montant >= 0;
}

/** The callback event codes meaningOfEvent reads: what Sika's webhook registration asks for. */
export const HANDLED_EVENT_CODES = [
  'PAIEMENT_RECU',
  'RTP_REJETE',
] as const satisfies readonly WebhooksEvents[];
