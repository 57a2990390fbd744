import { normalizeAlias } from './alias-table';

/**
 * The payout destinations of test mode: the accounts Sika's payouts may be sent to, and what each one's bank
 * does with a transfer. Every one resolves at the name lookup (confirmation: true); the failing ones fail
 * when the money is sent. Any other alias is unknown to the directory (BE23 at once, name lookup included).
 */
export type PayeeBehaviour =
  /** Receives the transfer: ENVOYE, then PAIEMENT_ENVOYE (IRREVOCABLE). */
  | { kind: 'receives'; name: string; country: string }
  /** The alias was removed after it was verified: the transfer is REJETE at once with this reason. */
  | { kind: 'rejected_at_once'; name: string; country: string; reason: 'BE23' }
  /** The payee's bank refuses the transfer: ENVOYE, then PAIEMENT_REJETE with this reason. */
  | { kind: 'rejected_by_bank'; name: string; country: string; reason: 'AC06' | 'AB08' }
  | { kind: 'unknown' };

const COUNTRY = 'CI';

const TABLE: Readonly<Record<string, PayeeBehaviour>> = {
  // Sika's default test payout account, which every merchant has in test mode.
  '+2250000000100': { kind: 'receives', name: 'Marchand Test Sika', country: COUNTRY },
  '+2250000000123': {
    kind: 'rejected_at_once',
    name: 'Compte Test Supprime',
    country: COUNTRY,
    reason: 'BE23',
  },
  '+2250000000106': {
    kind: 'rejected_by_bank',
    name: 'Compte Test Bloque',
    country: COUNTRY,
    reason: 'AC06',
  },
  '+2250000000108': {
    kind: 'rejected_by_bank',
    name: 'Compte Test Hors Ligne',
    country: COUNTRY,
    reason: 'AB08',
  },
};

export function payeeBehaviourOf(alias: string): PayeeBehaviour {
  return TABLE[normalizeAlias(alias)] ?? { kind: 'unknown' };
}
