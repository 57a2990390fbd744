import type { WebhookEvent, WebhookEventsList, WebhooksEvents } from '@sika/pispi';

import { payerBehaviourOf } from './alias-table';
import {
  applyPayerAction,
  isAwaitingPayment,
  PAYER_REFUSAL_REASON,
  RETURN_REFUSAL_REASON,
  type DemandeRecord,
  type PayerAction,
  type ScheduledPayerAction,
} from './demande';

/**
 * The event the payee's webhooks receive when the payer answered (PAIEMENT_RECU or RTP_REJETE); none for an
 * invoice accepted to be paid later, which the API Business announces with no event (only its status says it).
 */
export function payerAnswerEvent(demande: DemandeRecord, at: Date): WebhookEvent | undefined {
  if (isAwaitingPayment(demande)) return undefined;
  const common = eventCommon(demande, at);
  if (demande.statut === 'IRREVOCABLE' && demande.paiementEnd2endId !== null) {
    // The transfer that pays the request has its own end-to-end id: fund returns will name it.
    return {
      evCode: 'PAIEMENT_RECU',
      end2endId: demande.paiementEnd2endId,
      ...common,
      montant: amountPaid(demande),
    };
  }
  return {
    evCode: 'RTP_REJETE',
    end2endId: demande.end2endId,
    motif: demande.statutRaison ?? PAYER_REFUSAL_REASON,
    ...common,
  };
}

/** What a paying payer transfers: the amount asked for, unless they are the payer who pays short. */
export function amountPaid(demande: DemandeRecord): number {
  const behaviour = payerBehaviourOf(demande.request.payeurAlias);
  return demande.request.montant - (behaviour.kind === 'pays' ? (behaviour.shortBy ?? 0) : 0);
}

function eventCommon(demande: DemandeRecord, at: Date) {
  const { request } = demande;
  return {
    evDate: at.toISOString(),
    txId: request.txId,
    montant: request.montant,
    alias: request.payeAlias,
    ...(demande.payeurNom === null ? {} : { client: demande.payeurNom }),
    ...(request.refDocType === undefined ? {} : { refDocType: request.refDocType }),
    ...(request.refDocNumero === undefined ? {} : { refDocNumero: request.refDocNumero }),
  };
}

/**
 * The payee's news of a fund return: RETOUR_ENVOYE, or RETOUR_REJETE with the reason as motif. Like the
 * document's, it names the returned payment's end-to-end id, so a return sent again repeats code and id.
 */
export function returnEvent(demande: DemandeRecord, at: Date): WebhookEvent | undefined {
  const { retour, paiementEnd2endId } = demande;
  if (retour === null || paiementEnd2endId === null || retour.statut === 'INITIE') return undefined;
  const common = { ...eventCommon(demande, at), end2endId: paiementEnd2endId, montant: amountPaid(demande) };
  return retour.statut === 'REJETE'
    ? { evCode: 'RETOUR_REJETE', motif: retour.statutRaison ?? RETURN_REFUSAL_REASON, ...common }
    : { evCode: 'RETOUR_ENVOYE', ...common };
}

/** The callback body: a WebhookEventsList, serialized once so every attempt sends (and signs) the same bytes. */
export function callbackBody(events: readonly WebhookEvent[]): string {
  const list: WebhookEventsList = { data: [...events], meta: { total: events.length } };
  return JSON.stringify(list);
}

export interface WebhookFilter {
  alias: string | null;
  events: readonly string[];
}

/** A webhook receives an event if it is not restricted to other aliases or to other event codes. */
export function webhookReceives(
  webhook: WebhookFilter,
  event: { evCode: WebhooksEvents; alias?: string },
): boolean {
  if (webhook.alias !== null && webhook.alias !== event.alias) return false;
  return webhook.events.length === 0 || webhook.events.includes(event.evCode);
}

/** A callback to write for one webhook, with the exact body to sign. */
export interface NewNotification {
  id: string;
  webhookId: string;
  evCode: string;
  body: string;
}

export interface AnsweredDemande {
  demande: DemandeRecord;
  next: ScheduledPayerAction | undefined;
  notifications: NewNotification[];
}

/**
 * A payer action applied to a demande: the new demande, what follows, and one signed callback per webhook
 * of the client that receives its event. Undefined when the action no longer applies.
 */
export function answerDemande(
  demande: DemandeRecord,
  action: PayerAction,
  at: Date,
  webhooks: readonly (WebhookFilter & { id: string })[],
  ids: { end2endId: () => string; notificationId: () => string },
): AnsweredDemande | undefined {
  const answered = applyPayerAction(demande, action, at, ids.end2endId());
  if (!answered) return undefined;
  const event =
    action === 'return' ? returnEvent(answered.demande, at) : payerAnswerEvent(answered.demande, at);
  const notifications =
    event === undefined
      ? []
      : webhooks
          .filter((webhook) => webhookReceives(webhook, event))
          .map((webhook) => ({
            id: ids.notificationId(),
            webhookId: webhook.id,
            evCode: event.evCode,
            body: callbackBody([event]),
          }));
  return { ...answered, notifications };
}
