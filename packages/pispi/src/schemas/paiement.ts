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

/**
 * `POST /paiements` body (PaiementImmediatRequest): a credit transfer from the business's account
 * (`payeurAlias`) to an alias. `confirmation: true` asks for the name lookup first (answered INITIE with
 * payeNom), the transfer leaving only once confirmed (`PUT /paiements/{txId}/confirmations`). Strict, like
 * every request body the simulator validates; whole XOF, so `montant` is positive.
 */
export const PaiementImmediatRequest = z.strictObject({
  txId: z.string().min(1).max(35),
  payeurAlias: z.string().min(1),
  payeAlias: z.string().min(1),
  montant: z.number().positive(),
  confirmation: z.boolean(),
  refDocNumero: z.string().max(35).optional(),
  refDocType: RefDocType.optional(),
  motif: z.string().max(140).optional(),
  programme: z.boolean().optional(),
});
export type PaiementImmediatRequest = z.infer<typeof PaiementImmediatRequest>;

/** `PUT /paiements/{txId}/confirmations` body: send the transfer (true) or drop it (false). */
export const PaiementImmediatConfirmationRequest = z.strictObject({ decision: z.boolean() });
export type PaiementImmediatConfirmationRequest = z.infer<typeof PaiementImmediatConfirmationRequest>;
