/**
 * The test aliases of spec §1 and what the simulated payer behind each one does. Aliases are compared after
 * removing spaces, dots and hyphens (`+225 00.00-00 00 01` is `+2250000000001`), as the public API accepts
 * them in any of those spellings.
 */
export interface SimulatedPayer {
  /** `payeurNom` (≤ 35 characters, the WebhookEvent `client` limit). */
  name: string;
  /** `payeurPays`, ISO 3166 alpha-2. */
  country: string;
}

export type PayerBehaviour =
  /** Accepts and pays at once: ENVOYE, then a PAIEMENT_RECU callback (`shortBy` francs short, if set). */
  | { kind: 'pays'; payer: SimulatedPayer; shortBy?: number }
  /** Refuses: ENVOYE, then an RTP_REJETE callback. */
  | { kind: 'refuses'; payer: SimulatedPayer }
  /** Never answers: ENVOYE, then at dateLimitePaiement an RTP_REJETE AEXR (the request ran out). */
  | { kind: 'ignores'; payer: SimulatedPayer }
  /**
   * Accepts now and pays later, when told to (the simulator's pay operation, as the customer would at
   * delivery): an invoice (401) becomes IRREVOCABLE without money; an immediate request (521) stays ENVOYE.
   * Either runs out at its deadline if never paid.
   */
  | { kind: 'defers'; payer: SimulatedPayer; refusesFirstReturn: boolean }
  /** The payer's bank fails: ENVOYE, then an RTP_REJETE AG10 (payer's participant suspended). */
  | { kind: 'fails'; payer: SimulatedPayer }
  /** No account behind the alias: REJETE BE23 at once. */
  | { kind: 'unknown' };

const COUNTRY = 'CI';

const TABLE: Readonly<Record<string, PayerBehaviour>> = {
  '+2250000000001': { kind: 'pays', payer: { name: 'Client Test Paie', country: COUNTRY } },
  '+2250000000002': { kind: 'refuses', payer: { name: 'Client Test Refuse', country: COUNTRY } },
  '+2250000000003': { kind: 'ignores', payer: { name: 'Client Test Ignore', country: COUNTRY } },
  '+2250000000004': {
    kind: 'defers',
    payer: { name: 'Client Test Differe', country: COUNTRY },
    refusesFirstReturn: false,
  },
  // Sika's additions to the spec's table: a path a merchant must be able to test.
  '+2250000000006': { kind: 'fails', payer: { name: 'Client Test Panne', country: COUNTRY } },
  // Pays later like …04, and their bank refuses the first return of the money (AC06), taking the next.
  '+2250000000007': {
    kind: 'defers',
    payer: { name: 'Client Test Retour', country: COUNTRY },
    refusesFirstReturn: true,
  },
  // Pays at once, one franc short: an amount Sika must not credit.
  '+2250000000008': { kind: 'pays', payer: { name: 'Client Test Montant', country: COUNTRY }, shortBy: 1 },
};

export function normalizeAlias(alias: string): string {
  return alias.replace(/[\s.-]/g, '');
}

/** Alias 5, and every alias outside the table, is unknown to the simulated scheme directory. */
export function payerBehaviourOf(alias: string): PayerBehaviour {
  return TABLE[normalizeAlias(alias)] ?? { kind: 'unknown' };
}
