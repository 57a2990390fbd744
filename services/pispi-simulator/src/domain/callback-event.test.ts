import { WebhookEventsList, type DemandePaiementRequest } from '@sika/pispi';

import { callbackBody, payerAnswerEvent, webhookReceives } from './callback-event';
import { applyPayerAction, receiveDemande } from './demande';

const at = new Date('2026-03-01T10:00:01.000Z');
const request: DemandePaiementRequest = {
  txId: 'att_1',
  payeurAlias: '+2250000000001',
  payeAlias: 'sika-test-payee',
  confirmation: false,
  montant: 2500,
  categorie: '521',
  dateLimitePaiement: '2026-03-01T10:02:00.000Z',
};

describe('payerAnswerEvent', () => {
  const sent = receiveDemande(request, 'E2E-RTP', at, 0).record;

  it('announces a payment as PAIEMENT_RECU with the transfer end-to-end id', () => {
    const paid = applyPayerAction(sent, 'pay', at, 'E2E-PAY');
    expect(paid && payerAnswerEvent(paid.demande, at)).toEqual({
      evCode: 'PAIEMENT_RECU',
      evDate: at.toISOString(),
      txId: 'att_1',
      end2endId: 'E2E-PAY',
      montant: 2500,
      alias: 'sika-test-payee',
      client: 'Client Test Paie',
    });
  });

  it('announces a refusal as RTP_REJETE with the reason in motif', () => {
    const refused = applyPayerAction(sent, 'refuse', at, 'unused');
    expect(refused && payerAnswerEvent(refused.demande, at)).toMatchObject({
      evCode: 'RTP_REJETE',
      end2endId: 'E2E-RTP',
      motif: 'BE05',
    });
  });

  it('serializes a WebhookEventsList the schema accepts', () => {
    const event = payerAnswerEvent(applyPayerAction(sent, 'pay', at, 'E2E-PAY')?.demande ?? sent, at);
    const body = callbackBody(event ? [event] : []);
    expect(WebhookEventsList.parse(JSON.parse(body))).toMatchObject({ meta: { total: 1 } });
  });

  it('announces nothing for an invoice accepted to be paid later: the API Business has no such event', () => {
    const invoice: DemandePaiementRequest = {
      ...request,
      payeurAlias: '+2250000000004',
      categorie: '401',
      dateLimitePaiement: '2026-03-03',
    };
    const accepted = applyPayerAction(receiveDemande(invoice, 'E', at, 0).record, 'accept', at, 'x');
    expect(accepted && payerAnswerEvent(accepted.demande, at)).toBeUndefined();
  });
});

describe('webhookReceives', () => {
  const event = { evCode: 'PAIEMENT_RECU' as const, alias: 'sika-test-payee' };

  it('delivers everything to an unrestricted webhook', () => {
    expect(webhookReceives({ alias: null, events: [] }, event)).toBe(true);
  });

  it('honours the alias and event restrictions', () => {
    expect(webhookReceives({ alias: 'sika-test-payee', events: ['PAIEMENT_RECU'] }, event)).toBe(true);
    expect(webhookReceives({ alias: 'other', events: [] }, event)).toBe(false);
    expect(webhookReceives({ alias: null, events: ['RTP_REJETE'] }, event)).toBe(false);
  });
});
