import type { PaiementImmediatRequest } from '@sika/pispi';

import {
  answerVirement,
  confirmVirement,
  receiveVirement,
  toVirementPaiement,
  virementEvent,
} from './virement';

const now = new Date('2026-11-25T08:00:00.000Z');
const DELAY = 300;
const E2E = 'ECISIM120261125080000abcdefghijklmn';

const request = (payeAlias: string, confirmation = false): PaiementImmediatRequest => ({
  txId: 'po_1',
  payeurAlias: 'sika-account',
  payeAlias,
  montant: 4_000,
  confirmation,
});

describe('a transfer at the simulated participant', () => {
  it('sends to the default test account, whose bank makes it irrevocable after the delay', () => {
    const sent = receiveVirement(request('+225 0000000100'), E2E, now, DELAY);
    expect(sent).toMatchObject({ statut: 'ENVOYE', payeNom: 'Marchand Test Sika', dateEnvoi: now });
    expect(sent.outcomeDueAt).toEqual(new Date(now.getTime() + DELAY));
    const answered = answerVirement(sent, now);
    expect(answered).toMatchObject({ statut: 'IRREVOCABLE', outcomeDueAt: null, dateIrrevocabilite: now });
    expect(virementEvent(answered!, now)).toMatchObject({
      evCode: 'PAIEMENT_ENVOYE',
      txId: 'po_1',
      end2endId: E2E,
      alias: 'sika-account',
      client: 'Marchand Test Sika',
    });
  });

  it('has the bank of …106 reject it with AC06, and rejects …123 at once with BE23', () => {
    const sent = receiveVirement(request('+2250000000106'), E2E, now, DELAY);
    const rejected = answerVirement(sent, now);
    expect(rejected).toMatchObject({ statut: 'REJETE', statutRaison: 'AC06' });
    expect(virementEvent(rejected!, now)).toMatchObject({ evCode: 'PAIEMENT_REJETE', motif: 'AC06' });
    expect(receiveVirement(request('+2250000000123'), E2E, now, DELAY)).toMatchObject({
      statut: 'REJETE',
      statutRaison: 'BE23',
      outcomeDueAt: null,
    });
  });

  it('looks a payee up (INITIE with the name), then sends or drops it once', () => {
    const lookup = receiveVirement(request('+2250000000106', true), E2E, now, DELAY);
    expect(lookup).toMatchObject({ statut: 'INITIE', payeNom: 'Compte Test Bloque', outcomeDueAt: null });
    const dropped = confirmVirement(lookup, false, now, DELAY);
    expect(dropped).toMatchObject({ statut: 'ANNULE', dateConfirmation: now });
    expect(confirmVirement(dropped as never, true, now, DELAY)).toBe('forbidden');
    expect(toVirementPaiement(dropped as never)).toMatchObject({ statut: 'REJETE', categorie: '733' });
    expect(confirmVirement(lookup, true, now, DELAY)).toMatchObject({ statut: 'ENVOYE' });
  });

  it('knows no other alias: REJETE BE23 without a name, lookups included', () => {
    for (const confirmation of [true, false]) {
      const unknown = receiveVirement(request('+2250000000199', confirmation), E2E, now, DELAY);
      expect(unknown).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23', payeNom: null });
      expect(toVirementPaiement(unknown)).not.toHaveProperty('payeNom');
    }
  });
});
