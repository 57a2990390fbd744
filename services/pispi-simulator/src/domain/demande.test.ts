import {
  DemandePaiementConsultationReponse,
  DemandePaiementReponse,
  type DemandePaiementRequest,
} from '@sika/pispi';

import {
  applyPayerAction,
  deadlineOf,
  isPayable,
  maySchedule,
  duplicateTxIdReponse,
  receiveDemande,
  toConsultationReponse,
  toDemandePaiementReponse,
} from './demande';

const at = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-02T10:00:00.000Z');
const request = (payeurAlias: string): DemandePaiementRequest => ({
  txId: 'att_1',
  payeurAlias,
  payeAlias: 'sika-test-payee',
  confirmation: false,
  montant: 2500,
  categorie: '521',
  dateLimitePaiement: '2026-03-01T10:02:00.000Z',
  motif: 'Commande 42',
  refDocNumero: 'order-42',
  refDocType: 'CINV',
});

describe('receiveDemande', () => {
  it('sends a request for alias 1 and schedules the payment after the payer delay', () => {
    const { record, payerAction } = receiveDemande(request('+225 0000000001'), 'E2E1', at, 300);
    expect(record).toMatchObject({ statut: 'ENVOYE', statutRaison: null, payeurNom: 'Client Test Paie' });
    expect(record.dateEnvoi).toEqual(at);
    expect(payerAction).toEqual({ action: 'pay', dueAt: new Date(at.getTime() + 300) });
  });

  it('schedules a refusal for alias 2, a bank failure for alias 6, and for alias 3 the deadline', () => {
    expect(receiveDemande(request('+2250000000002'), 'E', at, 0).payerAction?.action).toBe('refuse');
    expect(receiveDemande(request('+2250000000006'), 'E', at, 300).payerAction).toEqual({
      action: 'fail',
      dueAt: new Date(at.getTime() + 300),
    });
    const ignored = receiveDemande(request('+2250000000003'), 'E', at, 0);
    expect(ignored.record.statut).toBe('ENVOYE');
    expect(ignored.payerAction).toEqual({ action: 'expire', dueAt: new Date('2026-03-01T10:02:00.000Z') });
  });

  it.each([
    ['refuse', 'BE05'],
    ['fail', 'AG10'],
    ['expire', 'AEXR'],
  ] as const)('%s: REJETE %s', (action, reason) => {
    const { record } = receiveDemande(request('+2250000000001'), 'E', at, 0);
    expect(applyPayerAction(record, action, at, 'P')?.demande).toMatchObject({
      statut: 'REJETE',
      statutRaison: reason,
    });
  });

  it('rejects alias 5 with BE23 at once, without payer details', () => {
    const { record, payerAction } = receiveDemande(request('+225 0000000005'), 'E', at, 0);
    expect(record).toMatchObject({
      statut: 'REJETE',
      statutRaison: 'BE23',
      payeurNom: null,
      dateEnvoi: null,
    });
    expect(payerAction).toBeUndefined();
  });
});

describe('applyPayerAction', () => {
  const sent = receiveDemande(request('+2250000000001'), 'E2E1', at, 0).record;

  it('makes a paid demande IRREVOCABLE with the transfer end-to-end id', () => {
    expect(applyPayerAction(sent, 'pay', at, 'E2E-PAY')?.demande).toMatchObject({
      statut: 'IRREVOCABLE',
      paiementEnd2endId: 'E2E-PAY',
      dateIrrevocabilite: at,
    });
  });

  it('makes a refused demande REJETE BE05', () => {
    expect(applyPayerAction(sent, 'refuse', at, 'x')?.demande).toMatchObject({
      statut: 'REJETE',
      statutRaison: 'BE05',
    });
  });

  it('leaves an answered demande alone', () => {
    const paid = applyPayerAction(sent, 'pay', at, 'E2E-PAY');
    expect(paid && applyPayerAction(paid.demande, 'refuse', at, 'x')).toBeUndefined();
  });
});

describe('the payer who pays later (alias 4)', () => {
  const invoice: DemandePaiementRequest = {
    txId: 'att_2',
    payeurAlias: '+225 0000000004',
    payeAlias: 'sika-test-payee',
    confirmation: false,
    montant: 2500,
    categorie: '401',
    dateLimitePaiement: '2026-03-03',
    dateLimiteReponse: '2026-03-03',
  };
  const endOfDeadline = new Date('2026-03-04T00:00:00.000Z');

  it('accepts an invoice after the delay, then may pay it until the end of its dateLimitePaiement', () => {
    const { record, payerAction } = receiveDemande(invoice, 'E', at, 300);
    expect(payerAction).toEqual({ action: 'accept', dueAt: new Date(at.getTime() + 300) });
    const accepted = applyPayerAction(record, 'accept', at, 'unused');
    expect(accepted?.demande).toMatchObject({ statut: 'IRREVOCABLE', paiementEnd2endId: null });
    expect(accepted?.next).toEqual({ action: 'expire', dueAt: endOfDeadline });
    expect(accepted && isPayable(accepted.demande, new Date(endOfDeadline.getTime() - 1))).toBe(true);
    expect(accepted && isPayable(accepted.demande, endOfDeadline)).toBe(false);

    const paid = accepted && applyPayerAction(accepted.demande, 'pay', later, 'E2E-PAY');
    expect(paid?.demande).toMatchObject({
      statut: 'IRREVOCABLE',
      paiementEnd2endId: 'E2E-PAY',
      dateIrrevocabilite: at,
    });
    expect(paid && applyPayerAction(paid.demande, 'expire', later, 'x')).toBeUndefined();
  });

  it('may not schedule an invoice whose answer is due less than 24 h ahead: it pays at once or not at all', () => {
    // Due by the end of 1 March in Abidjan: 14 h after `at`.
    const soon = { ...invoice, dateLimitePaiement: '2026-03-01', dateLimiteReponse: '2026-03-01' };
    const endOfSoon = new Date('2026-03-02T00:00:00.000Z');
    const { record, payerAction } = receiveDemande(soon, 'E', at, 300);
    expect(record.statut).toBe('ENVOYE');
    expect(payerAction).toEqual({ action: 'expire', dueAt: endOfSoon });
    expect(isPayable(record, new Date(at.getTime() + 3_600_000))).toBe(true);
    expect(maySchedule(soon, at)).toBe(false);
    expect(maySchedule(soon, new Date(endOfSoon.getTime() - 24 * 3_600_000))).toBe(true);
  });

  it('lets an accepted invoice never paid run out (AEXR), and nothing but that or a payment end it', () => {
    const accepted = applyPayerAction(receiveDemande(invoice, 'E', at, 0).record, 'accept', at, 'x');
    const demande = accepted?.demande;
    expect(demande && applyPayerAction(demande, 'refuse', later, 'x')).toBeUndefined();
    expect(demande && applyPayerAction(demande, 'expire', later, 'x')?.demande).toMatchObject({
      statut: 'REJETE',
      statutRaison: 'AEXR',
    });
  });

  it('waits on an immediate request until paid, or until it runs out', () => {
    const { record, payerAction } = receiveDemande(request('+2250000000004'), 'E', at, 0);
    expect(record.statut).toBe('ENVOYE');
    expect(payerAction).toEqual({ action: 'expire', dueAt: new Date('2026-03-01T10:02:00.000Z') });
    expect(isPayable(record, at)).toBe(true);
    expect(deadlineOf(record.request)).toEqual(new Date('2026-03-01T10:02:00.000Z'));
  });
});

describe('answers', () => {
  it('conform to DemandePaiementReponse and DemandePaiementConsultationReponse', () => {
    const { record } = receiveDemande(request('+2250000000001'), 'E2E1', at, 0);
    const reponse = toDemandePaiementReponse(record);
    expect(DemandePaiementReponse.parse(reponse)).toEqual(reponse);
    expect(reponse).toMatchObject({
      statut: 'ENVOYE',
      end2endId: 'E2E1',
      payeurPays: 'CI',
      motif: 'Commande 42',
    });
    const consultation = toConsultationReponse(record);
    expect(DemandePaiementConsultationReponse.parse(consultation)).toEqual(consultation);
    expect(consultation).not.toHaveProperty('end2endId');
  });

  it('answer a duplicate txId with REJETE DU03', () => {
    const reponse = duplicateTxIdReponse(request('+2250000000001'), 'E2E2', at);
    expect(reponse).toMatchObject({ statut: 'REJETE', statutRaison: 'DU03', txId: 'att_1' });
    expect(reponse).not.toHaveProperty('payeurNom');
  });
});
