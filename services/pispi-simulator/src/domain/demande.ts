import type {
  DemandePaiementConsultationReponse,
  DemandePaiementReponse,
  DemandePaiementRequest,
  DemandePaiementStatut,
  DemandePaiementStatutRaison,
} from '@sika/pispi';

import { payerBehaviourOf, type SimulatedPayer } from './alias-table';

/** A request-to-pay as the simulator keeps it. */
export interface DemandeRecord {
  txId: string;
  request: DemandePaiementRequest;
  statut: DemandePaiementStatut;
  statutRaison: DemandePaiementStatutRaison | null;
  payeurNom: string | null;
  payeurPays: string | null;
  end2endId: string;
  paiementEnd2endId: string | null;
  dateDemande: Date;
  dateEnvoi: Date | null;
  dateReponse: Date | null;
  dateIrrevocabilite: Date | null;
}

/** pay, refuse and fail are the payer's (or their bank's) answer; expire is the request running out. */
export type PayerAction = 'pay' | 'refuse' | 'fail' | 'expire';

/** What will happen to a demande sent to its payer, and when. */
export interface ScheduledPayerAction {
  action: PayerAction;
  dueAt: Date;
}

/** Reason a refusing payer gives: BE05, "the requesting party is not recognised by the payer". */
export const PAYER_REFUSAL_REASON: DemandePaiementStatutRaison = 'BE05';

const REJECTION_REASON: Record<Exclude<PayerAction, 'pay'>, DemandePaiementStatutRaison> = {
  refuse: PAYER_REFUSAL_REASON,
  // The payer's participant is suspended: a technical failure nobody chose.
  fail: 'AG10',
  expire: 'AEXR',
};

/**
 * The participant's immediate answer to a new request-to-pay, from the test alias table: an unknown alias is
 * rejected BE23 at once; any other is sent to the payer (ENVOYE), whose answer comes `payerDelayMs` later,
 * or, from a payer who never answers, the request runs out at its dateLimitePaiement.
 */
export function receiveDemande(
  request: DemandePaiementRequest,
  end2endId: string,
  receivedAt: Date,
  payerDelayMs: number,
): { record: DemandeRecord; payerAction: ScheduledPayerAction | undefined } {
  const behaviour = payerBehaviourOf(request.payeurAlias);
  const base = {
    txId: request.txId,
    request,
    end2endId,
    paiementEnd2endId: null,
    dateDemande: receivedAt,
    dateReponse: null,
    dateIrrevocabilite: null,
  };
  if (behaviour.kind === 'unknown') {
    const record: DemandeRecord = {
      ...base,
      statut: 'REJETE',
      statutRaison: 'BE23',
      payeurNom: null,
      payeurPays: null,
      dateEnvoi: null,
    };
    return { record, payerAction: undefined };
  }
  const record: DemandeRecord = { ...base, ...sentTo(behaviour.payer), dateEnvoi: receivedAt };
  const answerAt = new Date(receivedAt.getTime() + payerDelayMs);
  const scheduled: Record<typeof behaviour.kind, ScheduledPayerAction> = {
    pays: { action: 'pay', dueAt: answerAt },
    refuses: { action: 'refuse', dueAt: answerAt },
    fails: { action: 'fail', dueAt: answerAt },
    ignores: { action: 'expire', dueAt: new Date(request.dateLimitePaiement) },
  };
  const payerAction = scheduled[behaviour.kind];
  return { record, payerAction };
}

function sentTo(
  payer: SimulatedPayer,
): Pick<DemandeRecord, 'statut' | 'statutRaison' | 'payeurNom' | 'payeurPays'> {
  return { statut: 'ENVOYE', statutRaison: null, payeurNom: payer.name, payeurPays: payer.country };
}

/** The demande after the payer's answer. Only a demande still ENVOYE can be answered. */
export function applyPayerAction(
  demande: DemandeRecord,
  action: PayerAction,
  at: Date,
  paiementEnd2endId: string,
): DemandeRecord | undefined {
  if (demande.statut !== 'ENVOYE') return undefined;
  if (action === 'pay') {
    return { ...demande, statut: 'IRREVOCABLE', paiementEnd2endId, dateReponse: at, dateIrrevocabilite: at };
  }
  return { ...demande, statut: 'REJETE', statutRaison: REJECTION_REASON[action], dateReponse: at };
}

/** The request's own fields, echoed in both answers. */
function echoed(request: DemandePaiementRequest) {
  return {
    txId: request.txId,
    payeurAlias: request.payeurAlias,
    payeAlias: request.payeAlias,
    confirmation: request.confirmation,
    categorie: request.categorie,
    montant: request.montant,
    dateLimitePaiement: request.dateLimitePaiement,
    ...(request.motif === undefined ? {} : { motif: request.motif }),
    ...(request.refDocNumero === undefined ? {} : { refDocNumero: request.refDocNumero }),
    ...(request.refDocType === undefined ? {} : { refDocType: request.refDocType }),
  };
}

function optional<K extends string, V>(key: K, value: V | null): Partial<Record<K, V>> {
  return value === null ? {} : ({ [key]: value } as Record<K, V>);
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** `POST /demandes-paiements` answer (DemandePaiementReponse). */
export function toDemandePaiementReponse(demande: DemandeRecord): DemandePaiementReponse {
  return {
    ...echoed(demande.request),
    statut: demande.statut,
    ...optional('statutRaison', demande.statutRaison),
    ...optional('payeurNom', demande.payeurNom),
    ...optional('payeurPays', demande.payeurPays),
    end2endId: demande.end2endId,
    dateDemande: demande.dateDemande.toISOString(),
    ...optional('dateEnvoi', iso(demande.dateEnvoi)),
  };
}

/** `GET /demandes-paiements/{txId}` answer (DemandePaiementConsultationReponse, which has no end2endId). */
export function toConsultationReponse(demande: DemandeRecord): DemandePaiementConsultationReponse {
  const { request } = demande;
  return {
    ...echoed(request),
    ...(request.logoUrl === undefined ? {} : { logoUrl: request.logoUrl }),
    statut: demande.statut,
    ...optional('statutRaison', demande.statutRaison),
    ...optional('payeurNom', demande.payeurNom),
    ...optional('payeurPays', demande.payeurPays),
    dateDemande: demande.dateDemande.toISOString(),
    ...optional('dateEnvoi', iso(demande.dateEnvoi)),
    ...optional('dateReponse', iso(demande.dateReponse)),
    ...optional('dateIrrevocabilite', iso(demande.dateIrrevocabilite)),
  };
}

/** The answer to a txId already used by this client: DU03, nothing stored (the document's DU03 example). */
export function duplicateTxIdReponse(
  request: DemandePaiementRequest,
  end2endId: string,
  at: Date,
): DemandePaiementReponse {
  return {
    ...echoed(request),
    statut: 'REJETE',
    statutRaison: 'DU03',
    end2endId,
    dateDemande: at.toISOString(),
  };
}
