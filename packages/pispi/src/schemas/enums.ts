import { z } from 'zod';

/**
 * The enumerations of the API Business that Sika reads or writes, with the document's names and values
 * (`#/components/schemas/<Name>`). src/conformance.test.ts checks them against the document.
 */

/** Status of a request-to-pay: INITIE (awaiting confirmation), ENVOYE, IRREVOCABLE (payer accepted), REJETE. */
export const DemandePaiementStatut = z.enum(['INITIE', 'ENVOYE', 'IRREVOCABLE', 'REJETE']);
export type DemandePaiementStatut = z.infer<typeof DemandePaiementStatut>;

/**
 * Why a request-to-pay was rejected (ISO 20022 codes). BE23: unknown or invalid payer alias; DU03: txId
 * already used; BE05: the payer does not recognise the requester (what a payer's refusal carries).
 */
export const DemandePaiementStatutRaison = z.enum([
  'BE23',
  'DU03',
  'AC04',
  'AC06',
  'AEXR',
  'AG03',
  'AG10',
  'AG11',
  'ALAC',
  'AM02',
  'AM09',
  'AM14',
  'APAR',
  'ARFR',
  'ARJR',
  'BE01',
  'BE05',
  'FR01',
  'RR07',
]);
export type DemandePaiementStatutRaison = z.infer<typeof DemandePaiementStatutRaison>;

/** 500: in-store; 521: e-commerce immediate (the only one Sika sends); 401: invoice. */
export const DemandePaiementRequestCategorie = z.enum(['500', '521', '401']);
export type DemandePaiementRequestCategorie = z.infer<typeof DemandePaiementRequestCategorie>;

/** Event codes of the participant's callbacks (`evCode`). */
export const WebhooksEvents = z.enum([
  'PAIEMENT_RECU',
  'PAIEMENT_ENVOYE',
  'PAIEMENT_REJETE',
  'RTP_RECU',
  'RTP_REJETE',
  'ANNULATION_DEMANDE',
  'ANNULATION_REJETE',
  'RETOUR_ENVOYE',
  'RETOUR_REJETE',
  'RETOUR_RECU',
]);
export type WebhooksEvents = z.infer<typeof WebhooksEvents>;

/** Type of the supporting document (`refDocType`); CINV is a commercial invoice issued by the seller. */
export const RefDocType = z.enum([
  'CINV',
  'CMCN',
  'DISP',
  'PUOR',
  'CONT',
  'HIRI',
  'INVS',
  'MSIN',
  'PROF',
  'QUOT',
  'SPRR',
  'TISH',
  'USAR',
  'BOLD',
  'SOAC',
  'VCHR',
]);
export type RefDocType = z.infer<typeof RefDocType>;
