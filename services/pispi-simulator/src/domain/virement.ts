import type {
  Paiement,
  PaiementImmediatConfirmationReponse,
  PaiementImmediatReponse,
  PaiementImmediatRequest,
  PaiementStatutRaison,
  WebhookEvent,
} from '@sika/pispi';

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
  /** When the order was accepted: the decision after a name lookup, else its creation (the document's rule). */
  dateConfirmation: Date | null;
  dateEnvoi: Date | null;
  dateReponse: Date | null;
  dateIrrevocabilite: Date | null;
  /** When the payee's bank answers a transfer sent (ENVOYE): null once answered, or if never sent. */
  outcomeDueAt: Date | null;
}

/** The category of a transfer ordered through the API Business. */
const CATEGORIE_API_BUSINESS = '733';

/** How long a name lookup waits for its decision: the document's 24 hours. */
export const CONFIRMATION_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The details of the document's 403 examples for `PUT /paiements/{txId}/confirmations`. */
export const CONFIRMATION_REFUSALS = {
  confirmAfterDrop: 'Impossible de confirmer un paiement déjà annulé',
  dropAfterConfirm: "Impossible d'annuler un paiement déjà confirmé",
  windowPassed: 'Le délai de confirmation de 24 heures a été dépassé',
} as const;

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
  if (behaviour.kind === 'unknown') return rejected(base, 'BE23', now);
  if (request.confirmation) return base;
  return send(base, now, bankDelayMs);
}

function rejected(record: VirementRecord, reason: PaiementStatutRaison, now: Date): VirementRecord {
  return { ...record, statut: 'REJETE', statutRaison: reason, dateReponse: now, outcomeDueAt: null };
}

/** The transfer leaves: rejected at once for an alias removed since, else its bank answers after a delay. */
function send(record: VirementRecord, now: Date, bankDelayMs: number): VirementRecord {
  const behaviour = payeeBehaviourOf(record.request.payeAlias);
  if (behaviour.kind === 'rejected_at_once') return rejected(record, behaviour.reason, now);
  if (behaviour.kind === 'unknown') return rejected(record, 'BE23', now);
  return {
    ...record,
    statut: 'ENVOYE',
    dateConfirmation: record.dateConfirmation ?? now,
    dateEnvoi: now,
    outcomeDueAt: new Date(now.getTime() + bankDelayMs),
  };
}

export type ConfirmationResult =
  /** `changed`: this call took the decision (to save); else the same decision again, answered as it stands. */
  | { kind: 'decided'; record: VirementRecord; changed: boolean }
  /** The document's 403: the opposite of a decision taken, or past the 24 hours. */
  | { kind: 'forbidden'; detail: string };

/**
 * The business's decision after the name lookup. Idempotent, as the document says: the same decision again
 * answers the transfer as it stands; the opposite one is refused, a decision being final; so is any decision
 * once the 24 hours have passed.
 */
export function confirmVirement(
  record: VirementRecord,
  decision: boolean,
  now: Date,
  bankDelayMs: number,
): ConfirmationResult {
  if (record.statut === 'INITIE') {
    if (now.getTime() - record.dateDemande.getTime() > CONFIRMATION_WINDOW_MS) {
      return { kind: 'forbidden', detail: CONFIRMATION_REFUSALS.windowPassed };
    }
    const confirmed = { ...record, dateConfirmation: now };
    const decided: VirementRecord = decision
      ? send(confirmed, now, bankDelayMs)
      : { ...confirmed, statut: 'ANNULE' };
    return { kind: 'decided', record: decided, changed: true };
  }
  const dropped = record.statut === 'ANNULE';
  if (decision !== dropped) return { kind: 'decided', record, changed: false };
  return {
    kind: 'forbidden',
    detail: dropped ? CONFIRMATION_REFUSALS.confirmAfterDrop : CONFIRMATION_REFUSALS.dropAfterConfirm,
  };
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
 * The payer-side event of a transfer's answer: PAIEMENT_ENVOYE (irrevocable, with the order's free-text
 * motif) or PAIEMENT_REJETE with the reason as motif. `alias` is the business's own account, the one its
 * webhooks are registered for; `client` the payee's name.
 */
export function virementEvent(record: VirementRecord, at: Date): WebhookEvent | undefined {
  const { request } = record;
  const common = {
    evDate: at.toISOString(),
    txId: record.txId,
    end2endId: record.end2endId,
    montant: request.montant,
    alias: request.payeurAlias,
    ...(record.payeNom === null ? {} : { client: record.payeNom }),
    ...(request.refDocType === undefined ? {} : { refDocType: request.refDocType }),
    ...(request.refDocNumero === undefined ? {} : { refDocNumero: request.refDocNumero }),
  };
  if (record.statut === 'IRREVOCABLE') {
    return {
      evCode: 'PAIEMENT_ENVOYE',
      ...common,
      ...(request.motif === undefined ? {} : { motif: request.motif }),
    };
  }
  if (record.statut === 'REJETE')
    return { evCode: 'PAIEMENT_REJETE', motif: record.statutRaison ?? 'AB04', ...common };
  return undefined;
}

const iso = (date: Date | null): string | undefined => (date === null ? undefined : date.toISOString());

/** The object without its undefined fields: absent, not null, as the document's answers leave them. */
function present<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}

/** The payee's name and country, once the lookup found them; never beside BE23 (the alias answers to nobody). */
function payeeOf(record: Pick<VirementRecord, 'payeNom' | 'payePays' | 'statutRaison'>) {
  if (record.statutRaison === 'BE23') return {};
  return { payeNom: record.payeNom ?? undefined, payePays: record.payePays ?? undefined };
}

/**
 * The answer to `POST /paiements` (PaiementImmediatReponse), the variant of its statut: INITIE with the
 * payee; ENVOYE with dateConfirmation (its creation, without a confirmation) and dateEnvoi; REJETE with its
 * reason and dateReponse.
 */
export function toPaiementImmediatReponse(record: VirementRecord): PaiementImmediatReponse {
  const common = {
    ...record.request,
    statut: record.statut === 'ANNULE' ? 'REJETE' : record.statut,
    ...payeeOf(record),
    end2endId: record.end2endId,
    dateDemande: record.dateDemande.toISOString(),
  } as const;
  if (record.statut === 'INITIE') return present(common);
  if (record.statut === 'ENVOYE' || record.statut === 'IRREVOCABLE') {
    return present({
      ...common,
      dateConfirmation: iso(record.dateConfirmation),
      dateEnvoi: iso(record.dateEnvoi),
    });
  }
  return present({
    ...common,
    statutRaison: record.statutRaison ?? undefined,
    dateReponse: iso(record.dateReponse),
  });
}

/**
 * REJETE DU03 for a txId the client used before (the document's PaiementImmediatRejeteDU03): the order as
 * sent, with the payee found by its lookup; the first transfer is untouched.
 */
export function duplicateVirementReponse(
  request: PaiementImmediatRequest,
  end2endId: string,
  now: Date,
): PaiementImmediatReponse {
  const behaviour = payeeBehaviourOf(request.payeAlias);
  return present({
    ...request,
    statut: 'REJETE',
    statutRaison: 'DU03',
    ...(behaviour.kind === 'unknown' ? {} : { payeNom: behaviour.name, payePays: behaviour.country }),
    end2endId,
    dateDemande: now.toISOString(),
    dateReponse: now.toISOString(),
  });
}

/** Where a recorded transfer stands, as every answer about it says it (a dropped one, ANNULE, as REJETE). */
function recordedState(record: VirementRecord) {
  return {
    statut: record.statut === 'ANNULE' ? ('REJETE' as const) : record.statut,
    statutRaison: record.statutRaison ?? undefined,
    end2endId: record.end2endId,
    ...payeeOf(record),
    dateDemande: record.dateDemande.toISOString(),
    dateConfirmation: iso(record.dateConfirmation),
  };
}

/**
 * The answer to `{decision: true}` (PaiementImmediatConfirmationReponse): the transfer sent, or as it stands
 * for a repeated decision (IRREVOCABLE, or REJETE with its reason).
 */
export function toConfirmationReponse(record: VirementRecord): PaiementImmediatConfirmationReponse {
  return present({
    ...record.request,
    ...recordedState(record),
  });
}

/**
 * The transfer as `GET /paiements/{txId}` describes it (Paiement, whose `confirmation` is only ever true). A
 * dropped transfer (ANNULE, a status outside the document's enumeration) shows as REJETE without a reason:
 * it never left.
 */
export function toVirementPaiement(record: VirementRecord): Paiement {
  return present({
    ...record.request,
    confirmation: record.request.confirmation ? true : undefined,
    categorie: CATEGORIE_API_BUSINESS,
    ...recordedState(record),
    dateEnvoi: iso(record.dateEnvoi),
    dateIrrevocabilite: iso(record.dateIrrevocabilite),
    dateReponse: iso(record.dateReponse),
  });
}
