import {
  DemandePaiementRequest,
  PaiementImmediatRequest,
  WebhooksEvents,
  type WebhookEvent,
} from '@sika/pispi';

import {
  decisionOfStatut,
  invoiceDeadline,
  HANDLED_EVENT_CODES,
  LOOKUP_REASON,
  loggableProblem,
  meaningOfEvent,
  MOTIF_MAX,
  outcomeOfStatut,
  toDemandePaiement,
  toNameLookup,
  toPayoutPaiement,
} from './pispi-transformers';
import type { PaymentRequestInput } from './payment-request';

const input: PaymentRequestInput = {
  mode: 'test',
  txId: 'att_4fGh7Kq2Lm9Np3Rs5Tv8Wx1Y',
  // As SendPaymentRequest hands it on: the scheme's form of the alias (@sika/rules).
  payerAlias: '+2250000000001',
  amount: 15_000n,
  reason: 'Commande 42: 2 livres',
  reference: 'ORDER-2026-000000000000000000000000000042',
  expiresAt: new Date('2026-03-01T10:05:00.000Z'),
  onDelivery: false,
};
const settings = {
  payeeAlias: 'sika-collect',
  now: new Date('2026-03-01T10:00:00.000Z'),
  paymentDeadlineMs: 120_000,
};

describe('toDemandePaiement', () => {
  it('builds a valid e-commerce immediate request (521) sent without confirmation', () => {
    const demande = toDemandePaiement(input, settings);
    expect(DemandePaiementRequest.parse(demande)).toEqual(demande);
    expect(demande).toEqual({
      txId: input.txId,
      payeurAlias: '+2250000000001',
      payeAlias: 'sika-collect',
      confirmation: false,
      montant: 15_000,
      categorie: '521',
      dateLimitePaiement: '2026-03-01T10:02:00.000Z',
      motif: 'Commande 42: 2 livres',
      refDocNumero: 'ORDER-2026-000000000000000000000000',
    });
  });

  it("never lets the payer pay after the payment's expires_at", () => {
    const expiresAt = new Date('2026-03-01T10:00:45.000Z');
    expect(toDemandePaiement({ ...input, expiresAt }, settings).dateLimitePaiement).toBe(
      '2026-03-01T10:00:45.000Z',
    );
  });

  it('sends a payment on delivery as an invoice (401) due on the day of expires_at, in Abidjan', () => {
    const demande = toDemandePaiement(
      { ...input, onDelivery: true, expiresAt: new Date('2026-03-04T23:30:00.000Z') },
      settings,
    );
    expect(demande).toMatchObject({
      categorie: '401',
      dateLimitePaiement: '2026-03-04',
      dateLimiteReponse: '2026-03-04',
    });
    expect(DemandePaiementRequest.parse(demande)).toEqual(demande);
    expect(invoiceDeadline(new Date('2026-03-04T23:30:00.000Z'))).toEqual(
      new Date('2026-03-05T00:00:00.000Z'),
    );
  });

  it('leaves motif and refDocNumero out when there is no reason or reference', () => {
    const demande = toDemandePaiement({ ...input, reason: undefined, reference: undefined }, settings);
    expect(demande).not.toHaveProperty('motif');
    expect(demande).not.toHaveProperty('refDocNumero');
    expect(DemandePaiementRequest.safeParse(demande).success).toBe(true);
  });
});

describe('outcomeOfStatut', () => {
  it.each([
    ['ENVOYE', undefined, { outcome: 'SENT' }],
    ['IRREVOCABLE', undefined, { outcome: 'SENT' }],
    ['REJETE', 'BE23', { outcome: 'REJECTED', reasonCode: 'BE23' }],
    ['REJETE', 'DU03', { outcome: 'REJECTED', reasonCode: 'DU03' }],
    ['REJETE', undefined, { outcome: 'REJECTED', reasonCode: 'UNSPECIFIED' }],
    ['INITIE', undefined, undefined],
    [undefined, undefined, undefined],
  ] as const)('%s %s → %o', (statut, raison, expected) => {
    expect(outcomeOfStatut(statut, raison)).toEqual(expected);
  });
});

describe('decisionOfStatut', () => {
  it.each([
    ['IRREVOCABLE', undefined, 'ACCEPTED_DEFERRED'],
    ['ENVOYE', undefined, undefined],
    ['REJETE', 'BE05', 'REJECTED'],
    ['REJETE', 'AEXR', 'EXPIRED'],
    ['REJETE', 'AG11', 'FAILED'],
    ['REJETE', 'ARFR', undefined],
  ] as const)('%s %s → %s', (statut, raison, decision) => {
    expect(decisionOfStatut(statut, raison)).toBe(decision);
  });
});

const SIKA_ALIAS = 'sika-collect';

describe('meaningOfEvent', () => {
  const event = (overrides: Partial<WebhookEvent>): WebhookEvent => ({
    evCode: 'PAIEMENT_RECU',
    evDate: '2026-03-01T10:00:01.500Z',
    txId: input.txId,
    end2endId: 'ECISIM120260301100001abcdefghijklmn',
    montant: 15_000,
    ...overrides,
  });

  it('reads PAIEMENT_RECU as PAID, with the transfer end-to-end id, amount and date', () => {
    expect(meaningOfEvent(event({}), SIKA_ALIAS)).toEqual({
      kind: 'decision',
      txId: input.txId,
      decision: 'PAID',
      reasonCode: undefined,
      endToEndId: 'ECISIM120260301100001abcdefghijklmn',
      amount: 15_000n,
      occurredAt: new Date('2026-03-01T10:00:01.500Z'),
      payeeMismatch: false,
    });
  });

  it("flags a payment to another account than Sika's payee alias, never one without an alias", () => {
    expect(meaningOfEvent(event({ alias: 'someone-else' }), SIKA_ALIAS)).toMatchObject({
      payeeMismatch: true,
    });
    expect(meaningOfEvent(event({ alias: SIKA_ALIAS }), SIKA_ALIAS)).toMatchObject({ payeeMismatch: false });
  });

  it.each([
    ['BE05', 'REJECTED', 'BE05'],
    ['AM09', 'REJECTED', 'AM09'],
    ['AEXR', 'EXPIRED', 'AEXR'],
    ['AG10', 'FAILED', 'AG10'],
    ['AB04', 'FAILED', 'AB04'],
    ['XX99', 'REJECTED', 'XX99'],
    [undefined, 'REJECTED', 'UNSPECIFIED'],
  ])('reads RTP_REJETE with motif %s as %s (%s)', (motif, decision, reasonCode) => {
    expect(
      meaningOfEvent(event({ evCode: 'RTP_REJETE', ...(motif && { motif }) }), SIKA_ALIAS),
    ).toMatchObject({
      kind: 'decision',
      decision,
      reasonCode,
    });
  });

  it('ignores an RTP_REJETE saying the request was already answered: the first answer counts', () => {
    expect(meaningOfEvent(event({ evCode: 'RTP_REJETE', motif: 'APAR' }), SIKA_ALIAS)).toEqual({
      kind: 'ignored',
    });
  });

  it('reads RETOUR_ENVOYE and RETOUR_REJETE as the verdict on the return of the payment they name', () => {
    expect(meaningOfEvent(event({ evCode: 'RETOUR_ENVOYE' }), SIKA_ALIAS)).toEqual({
      kind: 'fund_return',
      end2endId: 'ECISIM120260301100001abcdefghijklmn',
      verdict: 'sent',
      reasonCode: undefined,
      occurredAt: new Date('2026-03-01T10:00:01.500Z'),
    });
    expect(meaningOfEvent(event({ evCode: 'RETOUR_REJETE', motif: 'AC06' }), SIKA_ALIAS)).toMatchObject({
      kind: 'fund_return',
      verdict: 'rejected',
      reasonCode: 'AC06',
    });
  });

  it("reads PAIEMENT_ENVOYE and PAIEMENT_REJETE as the verdict on a payout's transfer (Sika pays)", () => {
    expect(meaningOfEvent(event({ evCode: 'PAIEMENT_ENVOYE', txId: 'po_1' }), SIKA_ALIAS)).toMatchObject({
      kind: 'payout_transfer',
      payoutId: 'po_1',
      verdict: 'paid',
      reasonCode: undefined,
    });
    expect(
      meaningOfEvent(event({ evCode: 'PAIEMENT_REJETE', txId: 'po_2', motif: ' AC06 ' }), SIKA_ALIAS),
    ).toMatchObject({ kind: 'payout_transfer', payoutId: 'po_2', verdict: 'failed', reasonCode: 'AC06' });
  });

  it('ignores every other event code', () => {
    const handled = new Set<string>(HANDLED_EVENT_CODES);
    const others = WebhooksEvents.options.filter((code) => !handled.has(code));
    expect(others).toHaveLength(4);
    for (const evCode of others)
      expect(meaningOfEvent(event({ evCode }), SIKA_ALIAS)).toEqual({ kind: 'ignored' });
  });
});

describe('toPayoutPaiement', () => {
  const transfer = {
    payoutId: 'po_4fGh7Kq2Lm9Np3Rs5Tv8Wx1Y',
    payeeAlias: '+2250000000100',
    amount: 4_000n,
    reason: 'Sika payout po_4fGh7Kq2Lm9Np3Rs5Tv8Wx1Y',
  };

  it("sends the payout from Sika's account to the payout account at once, txId = the payout id", () => {
    const paiement = toPayoutPaiement(transfer, 'sika-collect');
    expect(PaiementImmediatRequest.parse(paiement)).toEqual(paiement);
    expect(paiement).toEqual({
      txId: transfer.payoutId,
      payeurAlias: 'sika-collect',
      payeAlias: '+2250000000100',
      montant: 4_000,
      confirmation: false,
      motif: transfer.reason,
    });
  });

  it('cuts the motif at 140 characters, counted as the document counts them, and leaves out an empty one', () => {
    const long = toPayoutPaiement({ ...transfer, reason: `${'é'.repeat(139)}😀😀` }, 'sika-collect');
    expect(Array.from(long.motif ?? '')).toHaveLength(MOTIF_MAX);
    expect(long.motif?.endsWith('é😀')).toBe(true);
    expect(PaiementImmediatRequest.safeParse(long).success).toBe(true);
    expect(toPayoutPaiement({ ...transfer, reason: '' }, 'sika-collect')).not.toHaveProperty('motif');
  });
});

describe('toNameLookup', () => {
  it('asks for the holder of an alias with 1 franc and confirmation true: nothing leaves until confirmed', () => {
    const lookup = toNameLookup('lkp_4fGh7Kq2Lm9Np3Rs5Tv8Wx1Y', '+2250000000106', 'sika-collect');
    expect(PaiementImmediatRequest.parse(lookup)).toEqual({
      txId: 'lkp_4fGh7Kq2Lm9Np3Rs5Tv8Wx1Y',
      payeurAlias: 'sika-collect',
      payeAlias: '+2250000000106',
      montant: 1,
      confirmation: true,
      motif: LOOKUP_REASON,
    });
  });
});

describe('loggableProblem', () => {
  it('keeps the status and the words of a problem, never its invalid-params', () => {
    const problem = {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'Format du message invalide',
      'invalid-params': [{ name: 'payeAlias', reason: '+2250700000001 inconnu' }],
    };
    expect(loggableProblem({ status: 400, problem })).toEqual({
      status: 400,
      title: 'Bad Request',
      detail: 'Format du message invalide',
    });
  });
});
