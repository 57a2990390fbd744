import type { PaiementImmediatRequest } from '@sika/pispi';

import {
  answerVirement,
  CONFIRMATION_REFUSALS,
  CONFIRMATION_WINDOW_MS,
  confirmVirement,
  duplicateVirementReponse,
  receiveVirement,
  toConfirmationReponse,
  toPaiementImmediatReponse,
  toVirementPaiement,
  virementEvent,
  type VirementRecord,
} from './virement';

const now = new Date('2026-11-25T08:00:00.000Z');
const later = new Date(now.getTime() + 5_000);
const DELAY = 300;
const E2E = 'ECISIM120261125080000abcdefghijklmn';

const request = (payeAlias: string, confirmation = false): PaiementImmediatRequest => ({
  txId: 'po_1',
  payeurAlias: 'sika-account',
  payeAlias,
  montant: 4_000,
  confirmation,
  motif: 'Sika payout po_1',
});

/** A record the caller knows to be decided, for the next step. */
function decided(result: ReturnType<typeof confirmVirement>): VirementRecord {
  if (result.kind !== 'decided') throw new Error(`expected a decision, got ${result.detail}`);
  return result.record;
}

describe('a transfer at the simulated participant', () => {
  it('sends to the default test account, whose bank makes it irrevocable after the delay', () => {
    const sent = receiveVirement(request('+225 0000000100'), E2E, now, DELAY);
    expect(sent).toMatchObject({
      statut: 'ENVOYE',
      payeNom: 'Marchand Test Sika',
      dateConfirmation: now,
      dateEnvoi: now,
    });
    expect(sent.outcomeDueAt).toEqual(new Date(now.getTime() + DELAY));
    const answered = answerVirement(sent, later);
    expect(answered).toMatchObject({ statut: 'IRREVOCABLE', outcomeDueAt: null, dateIrrevocabilite: later });
    expect(virementEvent(answered!, later)).toEqual({
      evCode: 'PAIEMENT_ENVOYE',
      evDate: later.toISOString(),
      txId: 'po_1',
      end2endId: E2E,
      montant: 4_000,
      alias: 'sika-account',
      client: 'Marchand Test Sika',
      motif: 'Sika payout po_1',
    });
    expect(toVirementPaiement(answered!)).toMatchObject({ statut: 'IRREVOCABLE', categorie: '733' });
  });

  it("answers POST /paiements with the document's ENVOYE variant: confirmation false, dateConfirmation", () => {
    const sent = receiveVirement(request('+2250000000100'), E2E, now, DELAY);
    expect(toPaiementImmediatReponse(sent)).toEqual({
      ...request('+2250000000100'),
      statut: 'ENVOYE',
      confirmation: false,
      payeNom: 'Marchand Test Sika',
      payePays: 'CI',
      end2endId: E2E,
      dateDemande: now.toISOString(),
      dateConfirmation: now.toISOString(),
      dateEnvoi: now.toISOString(),
    });
  });

  it('has the bank of …106 reject it with AC06, and rejects …123 at once with BE23 and no name', () => {
    const sent = receiveVirement(request('+2250000000106'), E2E, now, DELAY);
    const rejected = answerVirement(sent, later);
    expect(rejected).toMatchObject({ statut: 'REJETE', statutRaison: 'AC06', dateReponse: later });
    expect(virementEvent(rejected!, later)).toMatchObject({ evCode: 'PAIEMENT_REJETE', motif: 'AC06' });
    expect(toVirementPaiement(rejected!)).toMatchObject({
      statutRaison: 'AC06',
      payeNom: 'Compte Test Bloque',
    });

    const removed = receiveVirement(request('+2250000000123'), E2E, now, DELAY);
    expect(removed).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23', outcomeDueAt: null });
    expect(virementEvent(removed, now)).toMatchObject({ evCode: 'PAIEMENT_REJETE', motif: 'BE23' });
    expect(toPaiementImmediatReponse(removed)).toEqual({
      ...request('+2250000000123'),
      statut: 'REJETE',
      statutRaison: 'BE23',
      end2endId: E2E,
      dateDemande: now.toISOString(),
      dateReponse: now.toISOString(),
    });
  });

  it('looks every table alias up: INITIE with payeNom, payePays, end2endId and dateDemande, nothing sent', () => {
    for (const [alias, name] of [
      ['+2250000000100', 'Marchand Test Sika'],
      ['+2250000000123', 'Compte Test Supprime'],
      ['+2250000000106', 'Compte Test Bloque'],
      ['+2250000000108', 'Compte Test Hors Ligne'],
    ] as const) {
      const lookup = receiveVirement(request(alias, true), E2E, now, DELAY);
      expect(lookup).toMatchObject({ statut: 'INITIE', outcomeDueAt: null, dateEnvoi: null });
      expect(toPaiementImmediatReponse(lookup)).toEqual({
        ...request(alias, true),
        statut: 'INITIE',
        payeNom: name,
        payePays: 'CI',
        end2endId: E2E,
        dateDemande: now.toISOString(),
      });
    }
  });

  it('knows no other alias: REJETE BE23 without a name, lookups included', () => {
    for (const confirmation of [true, false]) {
      const unknown = receiveVirement(request('+2250000000199', confirmation), E2E, now, DELAY);
      expect(unknown).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23', payeNom: null });
      expect(toPaiementImmediatReponse(unknown)).not.toHaveProperty('payeNom');
      expect(toVirementPaiement(unknown)).not.toHaveProperty('payeNom');
    }
  });

  it('answers a txId used before with REJETE DU03, naming the payee its lookup found', () => {
    expect(duplicateVirementReponse(request('+2250000000100'), E2E, now)).toEqual({
      ...request('+2250000000100'),
      statut: 'REJETE',
      statutRaison: 'DU03',
      payeNom: 'Marchand Test Sika',
      payePays: 'CI',
      end2endId: E2E,
      dateDemande: now.toISOString(),
      dateReponse: now.toISOString(),
    });
    expect(duplicateVirementReponse(request('+2250000000199'), E2E, now)).not.toHaveProperty('payeNom');
  });
});

describe('the decision after a name lookup', () => {
  const lookup = (alias = '+2250000000100') => receiveVirement(request(alias, true), E2E, now, DELAY);

  it('sends the transfer on true (ENVOYE, then its bank answers) and answers it', () => {
    const result = confirmVirement(lookup(), true, later, DELAY);
    expect(result).toMatchObject({ kind: 'decided', changed: true });
    const sent = decided(result);
    expect(sent).toMatchObject({ statut: 'ENVOYE', dateConfirmation: later, dateEnvoi: later });
    expect(sent.outcomeDueAt).toEqual(new Date(later.getTime() + DELAY));
    expect(toConfirmationReponse(sent)).toEqual({
      ...request('+2250000000100', true),
      statut: 'ENVOYE',
      end2endId: E2E,
      payeNom: 'Marchand Test Sika',
      payePays: 'CI',
      dateDemande: now.toISOString(),
      dateConfirmation: later.toISOString(),
    });
  });

  it('drops it on false: ANNULE, which never leaves and reads as REJETE without a reason', () => {
    const dropped = decided(confirmVirement(lookup(), false, later, DELAY));
    expect(dropped).toMatchObject({ statut: 'ANNULE', dateConfirmation: later, outcomeDueAt: null });
    expect(answerVirement(dropped, later)).toBeUndefined();
    expect(virementEvent(dropped, later)).toBeUndefined();
    const shown = toVirementPaiement(dropped);
    expect(shown).toMatchObject({ statut: 'REJETE', categorie: '733' });
    expect(shown).not.toHaveProperty('statutRaison');
  });

  it('is idempotent: the same decision again changes nothing and is answered as the transfer stands', () => {
    const dropped = decided(confirmVirement(lookup(), false, later, DELAY));
    expect(confirmVirement(dropped, false, later, DELAY)).toEqual({
      kind: 'decided',
      record: dropped,
      changed: false,
    });
    const paid = answerVirement(decided(confirmVirement(lookup(), true, later, DELAY)), later)!;
    expect(confirmVirement(paid, true, later, DELAY)).toEqual({
      kind: 'decided',
      record: paid,
      changed: false,
    });
  });

  it('refuses the opposite of a decision taken, with the details of the document', () => {
    const dropped = decided(confirmVirement(lookup(), false, later, DELAY));
    expect(confirmVirement(dropped, true, later, DELAY)).toEqual({
      kind: 'forbidden',
      detail: CONFIRMATION_REFUSALS.confirmAfterDrop,
    });
    const sent = decided(confirmVirement(lookup(), true, later, DELAY));
    expect(confirmVirement(sent, false, later, DELAY)).toEqual({
      kind: 'forbidden',
      detail: CONFIRMATION_REFUSALS.dropAfterConfirm,
    });
  });

  it('refuses any decision once the 24 hours have passed', () => {
    const lastMoment = new Date(now.getTime() + CONFIRMATION_WINDOW_MS);
    expect(confirmVirement(lookup(), false, lastMoment, DELAY)).toMatchObject({ kind: 'decided' });
    const tooLate = new Date(lastMoment.getTime() + 1);
    for (const decision of [true, false]) {
      expect(confirmVirement(lookup(), decision, tooLate, DELAY)).toEqual({
        kind: 'forbidden',
        detail: CONFIRMATION_REFUSALS.windowPassed,
      });
    }
  });

  it('rejects a confirmed transfer to …123 at once with BE23, its name no longer shown', () => {
    const rejected = decided(confirmVirement(lookup('+2250000000123'), true, later, DELAY));
    expect(rejected).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23', outcomeDueAt: null });
    expect(toConfirmationReponse(rejected)).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23' });
    expect(toConfirmationReponse(rejected)).not.toHaveProperty('payeNom');
  });
});
