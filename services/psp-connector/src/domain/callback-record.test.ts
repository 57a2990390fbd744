import type { WebhookEvent } from '@sika/pispi';
import { recordedPispiEvent } from './callback-record';

describe('recordedPispiEvent', () => {
  const event: WebhookEvent = {
    evCode: 'PAIEMENT_RECU',
    evDate: '2026-03-01T09:00:00.000Z',
    txId: 'SIKA0123456789',
    end2endId: 'E2E0123456789',
    montant: 2500,
    client: 'Awa Traoré',
    alias: '+2250700000001',
    motif: 'order-1',
  };

  it("keeps what identifies and explains the event, without the person's name or alias", () => {
    expect(recordedPispiEvent(event)).toEqual({
      evCode: 'PAIEMENT_RECU',
      evDate: '2026-03-01T09:00:00.000Z',
      txId: 'SIKA0123456789',
      end2endId: 'E2E0123456789',
      montant: 2500,
      motif: 'order-1',
    });
  });

  it('leaves the event it was given untouched', () => {
    recordedPispiEvent(event);
    expect(event).toMatchObject({ client: 'Awa Traoré', alias: '+2250700000001' });
  });
});
