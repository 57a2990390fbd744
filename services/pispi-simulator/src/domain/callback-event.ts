import type { WebhookEvent, WebhookEventsList, WebhooksEvents } from '@sika/pispi';

import { PAYER_REFUSAL_REASON, type DemandeRecord } from './demande';

/** The event the payee's webhooks receive when the payer answered (PAIEMENT_RECU or RTP_REJETE). */
export function payerAnswerEvent(demande: DemandeRecord, at: Date): WebhookEvent {
  const { request } = demande;
  const common = {
    evDate: at.toISOString(),
    txId: request.txId,
    montant: request.montant,
    alias: request.payeAlias,
    ...(demande.payeurNom === null ? {} : { client: demande.payeurNom }),
    ...(request.refDocType === undefined ? {} : { refDocType: request.refDocType }),
    ...(request.refDocNumero === undefined ? {} : { refDocNumero: request.refDocNumero }),
  };
  if (demande.statut === 'IRREVOCABLE' && demande.paiementEnd2endId !== null) {
    // The transfer that pays the request has its own end-to-end id: fund returns will name it.
    return { evCode: 'PAIEMENT_RECU', end2endId: demande.paiementEnd2endId, ...common };
  }
  return {
    evCode: 'RTP_REJETE',
    end2endId: demande.end2endId,
    motif: demande.statutRaison ?? PAYER_REFUSAL_REASON,
    ...common,
  };
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
