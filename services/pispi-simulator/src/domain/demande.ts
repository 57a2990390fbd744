import type {
  DemandePaiementConsultationReponse,
  DemandePaiementReponse,
  DemandePaiementRequest,
  DemandePaiementStatut,
  DemandePaiementStatutRaison,
  Paiement,
  RetourStatut,
  RetourStatutRaison,
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
  /** The return of its payment to the payer, once the payee asked for it. */
  retour: FundReturn | null;
}

export interface FundReturn {
  statut: RetourStatut;
  statutRaison: RetourStatutRaison | null;
  /** How many times it was sent. */
  envois: number;
  dateDemande: Date;
  dateReponse: Date | null;
}

/**
 * pay, refuse and fail are the payer's (or their bank's) answer; accept is a payer accepting an invoice
 * they will pay later; expire is the request running out; return is the payer's bank answering the return
 * of the money the payee asked for.
 */
export type PayerAction = 'pay' | 'accept' | 'refuse' | 'fail' | 'expire' | 'return';

/** What will happen to a demande sent to its payer, and when. */
export interface ScheduledPayerAction {
  action: PayerAction;
  dueAt: Date;
}

/** Reason a refusing payer gives: BE05, "the requesting party is not recognised by the payer". */
export const PAYER_REFUSAL_REASON: DemandePaiementStatutRaison = 'BE05';

const REJECTION_REASON: Record<'refuse' | 'fail' | 'expire', DemandePaiementStatutRaison> = {
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
    retour: null,
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
  const runsOut: ScheduledPayerAction = { action: 'expire', dueAt: deadlineOf(request) };
  const scheduled: Record<typeof behaviour.kind, ScheduledPayerAction> = {
    pays: { action: 'pay', dueAt: answerAt },
    refuses: { action: 'refuse', dueAt: answerAt },
    fails: { action: 'fail', dueAt: answerAt },
    ignores: runsOut,
    defers: maySchedule(request, receivedAt) ? { action: 'accept', dueAt: answerAt } : runsOut,
  };
  const payerAction = scheduled[behaviour.kind];
  return { record, payerAction };
}

function sentTo(
  payer: SimulatedPayer,
): Pick<DemandeRecord, 'statut' | 'statutRaison' | 'payeurNom' | 'payeurPays'> {
  return { statut: 'ENVOYE', statutRaison: null, payeurNom: payer.name, payeurPays: payer.country };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When the payer can no longer pay: a 521's dateLimitePaiement; for a 401, whose deadline is a date, the end of
 * that day in Abidjan (UTC, no daylight saving).
 */
export function deadlineOf(request: DemandePaiementRequest): Date {
  if (request.categorie === '521') return new Date(request.dateLimitePaiement);
  return new Date(new Date(`${request.dateLimitePaiement}T00:00:00Z`).getTime() + DAY_MS);
}

/** The API Business: "when dateLimiteReponse is less than 24 h away, the payer cannot schedule the payment". */
const SCHEDULING_NOTICE_MS = DAY_MS;

/**
 * Whether the payer may accept this request now and pay it later: only an invoice (401) whose answer is due at
 * least 24 h after `at`. dateLimiteReponse is a date, due by the end of that day in Abidjan (as
 * dateLimitePaiement); without one, the payer answers by the payment deadline. A payer who may not schedule it
 * can still pay it at once, until its deadline.
 */
export function maySchedule(request: DemandePaiementRequest, at: Date): boolean {
  if (request.categorie !== '401') return false;
  const answerDay = request.dateLimiteReponse ?? request.dateLimitePaiement;
  const answerBy = new Date(`${answerDay}T00:00:00Z`).getTime() + DAY_MS;
  return answerBy - at.getTime() >= SCHEDULING_NOTICE_MS;
}

/** Accepted (IRREVOCABLE) but not paid yet: an invoice the payer scheduled. */
export function isAwaitingPayment(demande: DemandeRecord): boolean {
  return demande.statut === 'IRREVOCABLE' && demande.paiementEnd2endId === null;
}

/** Whether the payer may still pay it: sent and not answered, or accepted and not paid, before its deadline. */
export function isPayable(demande: DemandeRecord, at: Date): boolean {
  const open = demande.statut === 'ENVOYE' || isAwaitingPayment(demande);
  return open && at.getTime() < deadlineOf(demande.request).getTime();
}

export interface PayerAnswer {
  demande: DemandeRecord;
  /** What happens next to the demande, if anything: an accepted invoice still runs out at its deadline. */
  next: ScheduledPayerAction | undefined;
}

/**
 * The demande after a payer action, or undefined when it no longer applies (answered already, or paid). An
 * accepted invoice may still be paid or run out; nothing else changes a demande that was answered.
 */
export function applyPayerAction(
  demande: DemandeRecord,
  action: PayerAction,
  at: Date,
  paiementEnd2endId: string,
): PayerAnswer | undefined {
  if (action === 'return') return answerReturn(demande, at);
  const awaiting = isAwaitingPayment(demande);
  if (demande.statut !== 'ENVOYE' && !awaiting) return undefined;
  switch (action) {
    case 'pay':
      return {
        demande: {
          ...demande,
          statut: 'IRREVOCABLE',
          paiementEnd2endId,
          dateReponse: demande.dateReponse ?? at,
          dateIrrevocabilite: demande.dateIrrevocabilite ?? at,
        },
        next: undefined,
      };
    case 'accept':
      if (awaiting) return undefined;
      return {
        demande: { ...demande, statut: 'IRREVOCABLE', dateReponse: at, dateIrrevocabilite: at },
        next: { action: 'expire', dueAt: deadlineOf(demande.request) },
      };
    case 'refuse':
    case 'fail':
    case 'expire':
      if (awaiting && action !== 'expire') return undefined;
      return {
        demande: {
          ...demande,
          statut: 'REJETE',
          statutRaison: REJECTION_REASON[action],
          dateReponse: at,
        },
        next: undefined,
      };
  }
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
    ...(request.categorie === '401' && request.dateLimiteReponse !== undefined
      ? { dateLimiteReponse: request.dateLimiteReponse }
      : {}),
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

/** The return's answer comes as soon as the payer's bank has it. */
export const RETURN_DELAY_MS = 200;

/**
 * The payee asks for the money back to the payer (`PUT /paiements/{end2endId}/retours`). Idempotent as the
 * document says: a return under way or irrevocable is answered as it is; a first one, or one rejected
 * before, is sent (again), its answer following as RETOUR_ENVOYE or RETOUR_REJETE.
 */
export function requestReturn(
  demande: DemandeRecord,
  at: Date,
): { demande: DemandeRecord; next: ScheduledPayerAction | undefined } {
  const { retour } = demande;
  if (retour !== null && retour.statut !== 'REJETE') return { demande, next: undefined };
  const sent: FundReturn = {
    statut: 'INITIE',
    statutRaison: null,
    envois: (retour?.envois ?? 0) + 1,
    dateDemande: at,
    dateReponse: null,
  };
  return {
    demande: { ...demande, retour: sent },
    next: { action: 'return', dueAt: new Date(at.getTime() + RETURN_DELAY_MS) },
  };
}

/** Why the payer's bank refuses a return, for the payer who refuses the first one: their account is blocked. */
export const RETURN_REFUSAL_REASON: RetourStatutRaison = 'AC06';

/** The payer's bank takes the return, except the first one for the payer whose bank refuses it. */
function answerReturn(demande: DemandeRecord, at: Date): PayerAnswer | undefined {
  const { retour } = demande;
  if (retour === null || retour.statut !== 'INITIE') return undefined;
  const behaviour = payerBehaviourOf(demande.request.payeurAlias);
  const refused = behaviour.kind === 'defers' && behaviour.refusesFirstReturn && retour.envois === 1;
  const answered: FundReturn = refused
    ? { ...retour, statut: 'REJETE', statutRaison: RETURN_REFUSAL_REASON, dateReponse: at }
    : { ...retour, statut: 'IRREVOCABLE', dateReponse: at };
  return { demande: { ...demande, retour: answered }, next: undefined };
}

/** The answer to `PUT /paiements/{end2endId}/retours`: the received payment, with its return. */
export function toPaiement(demande: DemandeRecord): Paiement {
  const { request, retour } = demande;
  return {
    txId: request.txId,
    payeurAlias: request.payeurAlias,
    payeAlias: request.payeAlias,
    montant: request.montant,
    categorie: request.categorie,
    statut: 'IRREVOCABLE',
    ...optional('end2endId', demande.paiementEnd2endId),
    ...optional('payeurNom', demande.payeurNom),
    ...optional('payeurPays', demande.payeurPays),
    ...optional('dateIrrevocabilite', iso(demande.dateIrrevocabilite)),
    ...(retour && {
      retourStatut: retour.statut,
      ...optional('retourStatutRaison', retour.statutRaison),
      retourDateDemande: retour.dateDemande.toISOString(),
      ...optional('retourDateReponse', iso(retour.dateReponse)),
      ...(retour.statut === 'IRREVOCABLE'
        ? optional('retourDateIrrevocabilite', iso(retour.dateReponse))
        : {}),
    }),
  };
}
