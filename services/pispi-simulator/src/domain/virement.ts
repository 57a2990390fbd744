import type { Paiement, PaiementImmediatRequest, PaiementStatutRaison, WebhookEvent } from '@sika/pispi';

import { payeeBehaviourOf } from './payee-table';

/**
 * A credit transfer the business ordered (`POST /paiements`, categorie 733), as the simulated participant
 * keeps it. ANNULE is a transfer dropped after its name lookup (`decision: false`): it never left.
 */
export type VirementStatut = 'INITIE' | 'ENVOYE' | 'IRREVOCABLE' | 'REJETE' | 'ANNULE';

export interface VirementRecord {
  txId: string;
  request: PaiementImmediatRequest;
  statut: VirementStatut;
  statutRaison: PaiementStatutRaison | null;
  payeNom: string | null;
  payePays: string | null;
  end2endId: string;
  dateDemande: Date;
  dateConfirmation: Date | null;
  dateEnvoi: Date | null;
  dateReponse: Date | null;
  dateIrrevocabilite: Date | null;
  /** When the payee's bank answers a transfer sent (ENVOYE): null once answered, or if never sent. */
  outcomeDueAt: Date | null;
}

/** The category of a transfer ordered through the API Business. */
const CATEGORIE_API_BUSINESS = '733';

/**
 * A new transfer: REJETE BE23 for an alias the directory does not know; INITIE with the payee's name when
 * a confirmation is asked for; otherwise sent at once.
 */
export function receiveVirement(
  request: PaiementImmediatRequest,
  end2endId: string,
  now: Date,
  bankDelayMs: number,
): VirementRecord {
  const behaviour = payeeBehaviourOf(request.payeAlias);
  const base: VirementRecord = {
    txId: request.txId,
    request,
    statut: 'INITIE',
    statutRaison: null,
    payeNom: behaviour.kind === 'unknown' ? null : behaviour.name,
    payePays: behaviour.kind === 'unknown' ? null : behaviour.country,
    end2endId,
    dateDemande: now,
    dateConfirmation: null,
    dateEnvoi: null,
    dateReponse: null,
    dateIrrevocabilite: null,
    outcomeDueAt: null,
  };
  if (behaviour.kind === 'unknown')
    return { ...base, statut: 'REJETE', statutRaison: 'BE23', dateReponse: now };
  if (request.confirmation) return base;
  return send(base, now, bankDelayMs);
}

/** The transfer leaves: rejected at once for an alias removed since, else its bank answers after a delay. */
function send(record: VirementRecord, now: Date, bankDelayMs: number): VirementRecord {
  const behaviour = payeeBehaviourOf(record.request.payeAlias);
  if (behaviour.kind === 'rejected_at_once' || behaviour.kind === 'unknown') {
    const reason = behaviour.kind === 'unknown' ? 'BE23' : behaviour.reason;
    return { ...record, statut: 'REJETE', statutRaison: reason, dateReponse: now };
  }
  return { ...record, statut: 'ENVOYE', dateEnvoi: now, outcomeDueAt: new Date(now.getTime() + bankDelayMs) };
}

/**
 * The business's decision after the name lookup; 'forbidden' once decided (the document's 403: a decision
 * cannot be taken back).
 */
export function confirmVirement(
  record: VirementRecord,
  decision: boolean,
  now: Date,
  bankDelayMs: number,
): VirementRecord | 'forbidden' {
  if (record.statut !== 'INITIE') return 'forbidden';
  const confirmed = { ...record, dateConfirmation: now };
  return decision ? send(confirmed, now, bankDelayMs) : { ...confirmed, statut: 'ANNULE' };
}

/** The payee's bank answers a transfer sent: undefined when nothing is due. */
export function answerVirement(record: VirementRecord, now: Date): VirementRecord | undefined {
  if (record.statut !== 'ENVOYE' || record.outcomeDueAt === null) return undefined;
  const behaviour = payeeBehaviourOf(record.request.payeAlias);
  const answered = { ...record, outcomeDueAt: null };
  if (behaviour.kind === 'rejected_by_bank') {
    return { ...answered, statut: 'REJETE', statutRaison: behaviour.reason, dateReponse: now };
  }
  return { ...answered, statut: 'IRREVOCABLE', dateIrrevocabilite: now, dateReponse: now };
}

/**
 * The payer-side event of a transfer's answer: PAIEMENT_ENVOYE (irrevocable) or PAIEMENT_REJETE with the
 * reason as motif. `alias` is the business's own account, the one its webhooks are registered for.
 */
export function virementEvent(record: VirementRecord, at: Date): WebhookEvent | undefined {
  const common = {
    evDate: at.toISOString(),
    txId: record.txId,
    end2endId: record.end2endId,
    montant: record.request.montant,
    alias: record.request.payeurAlias,
    ...(record.payeNom === null ? {} : { client: record.payeNom }),
  };
  if (record.statut === 'IRREVOCABLE') return { evCode: 'PAIEMENT_ENVOYE', ...common };
  if (record.statut === 'REJETE')
    return { evCode: 'PAIEMENT_REJETE', motif: record.statutRaison ?? 'AB04', ...common };
  return undefined;
}

/**
 * The transfer as `GET /paiements/{txId}` and `POST /paiements` describe it. A dropped transfer (ANNULE, a
 * status outside the document's enumeration) shows as REJETE without a reason: it never left.
 */
export function toVirementPaiement(record: VirementRecord): Paiement {
  const iso = (date: Date | null) => (date === null ? undefined : date.toISOString());
  const fields: Paiement = {
    ...record.request,
    confirmation: record.request.confirmation ? true : undefined,
    categorie: CATEGORIE_API_BUSINESS,
    statut: record.statut === 'ANNULE' ? 'REJETE' : record.statut,
    statutRaison: record.statutRaison ?? undefined,
    end2endId: record.end2endId,
    payeNom: record.payeNom ?? undefined,
    payePays: record.payePays ?? undefined,
    dateDemande: record.dateDemande.toISOString(),
    dateConfirmation: iso(record.dateConfirmation),
    dateEnvoi: iso(record.dateEnvoi),
    dateIrrevocabilite: iso(record.dateIrrevocabilite),
    dateReponse: iso(record.dateReponse),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Paiement;
}
