import { z } from 'zod';

import {
  DemandePaiementRequestCategorie,
  DemandePaiementStatut,
  DemandePaiementStatutRaison,
  RefDocType,
} from './enums';

/** The fields of DemandePaiementRequestBase, shared by every variant Sika sends. */
const demandeBase = {
  /** Identifier of the request in the business's system, unique per business. */
  txId: z.string().min(1).max(35),
  payeurAlias: z.string().min(1),
  /** The business's account alias the funds go to. */
  payeAlias: z.string().min(1),
  logoUrl: z.string().max(140).optional(),
  /** false: the participant sends the request to the payer at once (no alias-lookup confirmation step). */
  confirmation: z.boolean(),
  montant: z.number().positive(),
  motif: z.string().max(140).optional(),
  refDocNumero: z.string().max(35).optional(),
  refDocType: RefDocType.optional(),
};

/**
 * Variant "Paiement immédiat e-commerce" of DemandePaiementRequest (categorie 521): the payer pays now, before
 * `dateLimitePaiement` (the document sets it 2 minutes after creation).
 */
export const DemandePaiementImmediat = z.strictObject({
  ...demandeBase,
  categorie: z.literal('521'),
  dateLimitePaiement: z.iso.datetime({ offset: true }),
});
export type DemandePaiementImmediat = z.infer<typeof DemandePaiementImmediat>;

/**
 * Variant "Paiement de facture sans remise" (categorie 401): the payer may accept now and schedule the
 * payment up to `dateLimitePaiement`; the request shows `IRREVOCABLE` once accepted. Dates, not date-times.
 */
export const DemandePaiementFacture = z.strictObject({
  ...demandeBase,
  categorie: z.literal('401'),
  dateLimitePaiement: z.iso.date(),
  dateLimiteReponse: z.iso.date().optional(),
});
export type DemandePaiementFacture = z.infer<typeof DemandePaiementFacture>;

/**
 * `POST /demandes-paiements` body: the variants Sika sends, told apart by `categorie`. Strict: the simulator
 * answers a misspelled or foreign field with a 400 naming it, which catches a client that drifts from the
 * document. Amounts are whole XOF, so `montant` must be positive (the document sets no minimum).
 */
export const DemandePaiementRequest = z.discriminatedUnion('categorie', [
  DemandePaiementImmediat,
  DemandePaiementFacture,
]);
export type DemandePaiementRequest = z.infer<typeof DemandePaiementRequest>;

/**
 * `statutRaison` as received: the document's 200 description says REJETE may carry "other ISO 20022 codes"
 * beyond the enumeration, so any 4-character ISO code is accepted rather than failing the whole answer.
 */
const StatutRaisonRecue = z.union([DemandePaiementStatutRaison, z.string().regex(/^[A-Z0-9]{4}$/)]);

/** `categorie` as received: the document's own response examples send it as a number (`"categorie": 500`). */
const CategorieRecue = z.union([DemandePaiementRequestCategorie, z.number()]);

const Remise = z.object({ montant: z.number().optional(), taux: z.number().optional() });

/**
 * The fields a participant sends back about a demande, shared by the answer to its creation and to its
 * consultation (the document describes them in two schemas, each checked by the conformance test).
 * Dates are kept as sent: the document types some `date` but its examples (and categorie 521) use date-time.
 */
const demandeRecue = {
  txId: z.string().max(35).optional(),
  payeurAlias: z.string().optional(),
  payeAlias: z.string().optional(),
  confirmation: z.boolean().optional(),
  montant: z.number().optional(),
  montantAchat: z.number().optional(),
  montantRetrait: z.number().optional(),
  montantFrais: z.number().optional(),
  remise: Remise.optional(),
  debitDiffere: z.boolean().optional(),
  motif: z.string().max(140).optional(),
  refDocNumero: z.string().max(35).optional(),
  refDocType: RefDocType.optional(),
  statut: DemandePaiementStatut.optional(),
  statutRaison: StatutRaisonRecue.optional(),
  /** Present with INITIE and ENVOYE, absent when rejected with BE23 or DU03. */
  payeurNom: z.string().optional(),
  payeurPays: z.string().optional(),
  dateLimitePaiement: z.string().optional(),
  dateLimiteReponse: z.string().optional(),
  dateDemande: z.string().optional(),
  dateEnvoi: z.string().optional(),
  dateConfirmation: z.string().optional(),
};

/**
 * Answer to `POST /demandes-paiements` (200). The document requires none of its fields; a client checks the
 * ones it relies on (statut). Unknown fields are dropped, so a participant may add some without breaking us.
 */
export const DemandePaiementReponse = z.object({
  ...demandeRecue,
  categorie: CategorieRecue.optional(),
  end2endId: z.string().optional(),
});
export type DemandePaiementReponse = z.infer<typeof DemandePaiementReponse>;

/** `GET /demandes-paiements/{txId}` (200). Note that the document gives this answer no end2endId. */
export const DemandePaiementConsultationReponse = z.object({
  ...demandeRecue,
  categorie: z.union([z.enum(['631', '500', '521', '401']), z.number()]).optional(),
  logoUrl: z.string().optional(),
  dateReponse: z.string().optional(),
  dateIrrevocabilite: z.string().optional(),
});
export type DemandePaiementConsultationReponse = z.infer<typeof DemandePaiementConsultationReponse>;
