import { z } from 'zod';

import { RefDocType } from './enums';

/** Status of a payment (Paiement), and of its fund return (RetourStatut): the same four steps. */
export const PaiementStatut = z.enum(['INITIE', 'ENVOYE', 'IRREVOCABLE', 'REJETE']);
export type PaiementStatut = z.infer<typeof PaiementStatut>;

export const RetourStatut = z.enum(['INITIE', 'ENVOYE', 'IRREVOCABLE', 'REJETE']);
export type RetourStatut = z.infer<typeof RetourStatut>;

/** Why a payment failed (ISO 20022 codes). */
export const PaiementStatutRaison = z.enum([
  'BE23',
  'DU03',
  'AB03',
  'AB04',
  'AB08',
  'AB09',
  'AC03',
  'AC06',
  'AC07',
  'AG01',
  'AG10',
  'AG11',
  'AEXR',
  'ALAC',
  'AM02',
  'AM04',
  'AM09',
  'AM21',
  'ARFR',
  'ARJR',
  'BE01',
  'FR01',
  'IRNR',
  'RR04',
]);
export type PaiementStatutRaison = z.infer<typeof PaiementStatutRaison>;

/** Why a fund return was rejected (`retourStatutRaison`, and the `motif` of a RETOUR_REJETE event). */
export const RetourStatutRaison = z.enum([
  'AB03',
  'AB04',
  'AC06',
  'AG10',
  'AG11',
  'AM04',
  'AM09',
  'FR01',
  'RR04',
]);
export type RetourStatutRaison = z.infer<typeof RetourStatutRaison>;

export const AnnulationStatut = z.enum(['INITIE', 'ENVOYE', 'IRREVOCABLE', 'REJETE']);
export const PaiementAnnulationMotif = z.enum(['AC03', 'AM09', 'SVNR', 'DUPL', 'FRAD']);
export const PaiementAnnulationStatutRaison = z.enum([
  'CUST',
  'AC04',
  'ARDT',
  'AG10',
  'AG11',
  'FR01',
  'RR04',
]);

/** A code as received: the enumeration, or any other ISO 20022 code a participant may add. */
const codeRecu = <E extends z.ZodEnum>(known: E) => z.union([known, z.string().regex(/^[A-Z0-9]{4}$/)]);

/**
 * A payment as a participant describes it (Paiement): the answer to `PUT /paiements/{end2endId}/retours`
 * (and `GET /paiements/...`). Only the fields the document requires are required; unknown fields are dropped.
 */
export const Paiement = z.object({
  txId: z.string(),
  payeurAlias: z.string(),
  payeAlias: z.string(),
  montant: z.number(),
  refDocNumero: z.string().max(35).optional(),
  refDocType: RefDocType.optional(),
  motif: z.string().max(140).optional(),
  programme: z.boolean().optional(),
  confirmation: z.literal(true).optional(),
  payeNom: z.string().optional(),
  payePays: z.string().optional(),
  payeurNom: z.string().optional(),
  payeurPays: z.string().optional(),
  payeurCompte: z.string().optional(),
  payeCompte: z.string().optional(),
  categorie: z
    .union([z.enum(['631', '000', '400', '733', '300', '999', '500', '521', '401']), z.number()])
    .optional(),
  statut: PaiementStatut.optional(),
  statutRaison: codeRecu(PaiementStatutRaison).optional(),
  end2endId: z.string().optional(),
  instructionId: z.string().optional(),
  montantFrais: z.number().optional(),
  dateDemande: z.string().optional(),
  dateConfirmation: z.string().optional(),
  dateEnvoi: z.string().optional(),
  dateIrrevocabilite: z.string().optional(),
  dateReponse: z.string().optional(),
  retourStatut: RetourStatut.optional(),
  retourStatutRaison: codeRecu(RetourStatutRaison).optional(),
  retourDateDemande: z.string().optional(),
  retourDateIrrevocabilite: z.string().optional(),
  retourDateReponse: z.string().optional(),
  annulationStatut: AnnulationStatut.optional(),
  annulationMotif: PaiementAnnulationMotif.optional(),
  annulationStatutRaison: PaiementAnnulationStatutRaison.optional(),
  annulationDateDemande: z.string().optional(),
  annulationDateReponse: z.string().optional(),
});
export type Paiement = z.infer<typeof Paiement>;

/** The fields of PaiementRequest, shared by both variants of a transfer order. */
const paiementRequestFields = {
  /** Identifier of the transfer in the business's system (≤ 35), unique per business: a repeat is DU03. */
  txId: z.string().min(1).max(35),
  /** The business's own account, debited. */
  payeurAlias: z.string().min(1),
  /** The payee, by alias only: the API Business has no account-number field for a transfer. */
  payeAlias: z.string().min(1),
  montant: z.number().positive(),
  refDocNumero: z.string().max(35).optional(),
  refDocType: RefDocType.optional(),
  motif: z.string().max(140).optional(),
  programme: z.boolean().optional(),
};

/**
 * Variant "Paiement initiée - confirmation demandée" of PaiementImmediatRequest: the participant looks the
 * payee up and answers INITIE with payeNom / payePays, sending nothing until
 * `PUT /paiements/{txId}/confirmations` (within 24 hours).
 */
export const PaiementImmediatAvecConfirmation = z.strictObject({
  ...paiementRequestFields,
  confirmation: z.literal(true),
});
export type PaiementImmediatAvecConfirmation = z.infer<typeof PaiementImmediatAvecConfirmation>;

/** Variant "Paiement envoyée sans confirmation": the transfer leaves at once (ENVOYE) or is REJETE. */
export const PaiementImmediatSansConfirmation = z.strictObject({
  ...paiementRequestFields,
  confirmation: z.literal(false),
});
export type PaiementImmediatSansConfirmation = z.infer<typeof PaiementImmediatSansConfirmation>;

/**
 * `POST /paiements` body (PaiementImmediatRequest): a credit transfer from the business's account
 * (`payeurAlias`) to an alias, the variants told apart by `confirmation`. Strict, like every request body the
 * simulator validates; whole XOF, so `montant` is positive.
 */
export const PaiementImmediatRequest = z.discriminatedUnion('confirmation', [
  PaiementImmediatAvecConfirmation,
  PaiementImmediatSansConfirmation,
]);
export type PaiementImmediatRequest = z.infer<typeof PaiementImmediatRequest>;

/** The fields of PaiementRequest as a participant echoes them: lenient, like every answer. */
const paiementRequestRecu = {
  txId: z.string().optional(),
  payeurAlias: z.string().optional(),
  payeAlias: z.string().optional(),
  montant: z.number().optional(),
  refDocNumero: z.string().max(35).optional(),
  refDocType: RefDocType.optional(),
  motif: z.string().max(140).optional(),
  programme: z.boolean().optional(),
  confirmation: z.boolean().optional(),
};

/**
 * Answer to `POST /paiements` (PaiementImmediatReponse, 200), its three variants read as one: INITIE (a name
 * lookup: payeNom, payePays), ENVOYE (sent: `confirmation: false`, dateConfirmation) or REJETE with its
 * `statutRaison` (BE23 without payeNom, DU03 for a txId used before). `statut` reads every PaiementStatut,
 * so that a participant answering IRREVOCABLE at once is understood rather than refused.
 */
export const PaiementImmediatReponse = z.object({
  ...paiementRequestRecu,
  statut: PaiementStatut.optional(),
  statutRaison: codeRecu(PaiementStatutRaison).optional(),
  payeNom: z.string().optional(),
  payePays: z.string().optional(),
  end2endId: z.string().optional(),
  dateDemande: z.string().optional(),
  dateConfirmation: z.string().optional(),
  dateEnvoi: z.string().optional(),
  dateReponse: z.string().optional(),
  montantFrais: z.number().optional(),
});
export type PaiementImmediatReponse = z.infer<typeof PaiementImmediatReponse>;

/**
 * `PUT /paiements/{txId}/confirmations` body: send the transfer (true) or drop it (false). The document's
 * two variants (PaiementImmediatConfirmationRequestAccepter / …Rejeter, `decision` true / false) are this.
 */
export const PaiementImmediatConfirmationRequest = z.strictObject({ decision: z.boolean() });
export type PaiementImmediatConfirmationRequest = z.infer<typeof PaiementImmediatConfirmationRequest>;

/**
 * Answer to `{decision: true}` (PaiementImmediatConfirmationReponse, 200): the transfer sent (ENVOYE). The
 * document makes the operation idempotent, a repeated `true` answering the transfer as it stands
 * (IRREVOCABLE, or REJETE with its reason), hence every PaiementStatut and `statutRaison`.
 */
export const PaiementImmediatConfirmationReponse = z.object({
  ...paiementRequestRecu,
  statut: PaiementStatut.optional(),
  statutRaison: codeRecu(PaiementStatutRaison).optional(),
  end2endId: z.string().optional(),
  payeNom: z.string().optional(),
  payePays: z.string().optional(),
  dateDemande: z.string().optional(),
  dateConfirmation: z.string().optional(),
});
export type PaiementImmediatConfirmationReponse = z.infer<typeof PaiementImmediatConfirmationReponse>;
