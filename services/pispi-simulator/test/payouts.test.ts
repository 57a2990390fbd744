import { randomUUID } from 'node:crypto';
import {
  PispiClient,
  PispiProblemError,
  Problem7807,
  WebhookEventsList,
  type PaiementImmediatRequest,
} from '@sika/pispi';
import { waitFor, type TestSchema } from '@sika/testing';

import {
  CallbackReceiver,
  CLIENT,
  createSimulatorSchema,
  spawnSimulator,
  type SimulatorProcess,
} from './support';

// Real processes (tsx compiles at start) on 2 shared cores: generous bounds, though a run takes seconds.
jest.setTimeout(60_000);

/** Sika's own account at the test participant: debited by payouts, named by their callbacks. */
const SIKA_ACCOUNT = 'sika-test-account';

function virement(
  payeAlias: string,
  overrides: Partial<PaiementImmediatRequest> = {},
): PaiementImmediatRequest {
  return {
    txId: `po_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    payeurAlias: SIKA_ACCOUNT,
    payeAlias,
    montant: 4_000,
    confirmation: false,
    motif: 'Sika payout',
    ...overrides,
  };
}

describe('pispi-simulator: payout destinations (POST /paiements)', () => {
  let db: TestSchema;
  let harness: SimulatorProcess;
  let client: PispiClient;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    db = await createSimulatorSchema();
    harness = await spawnSimulator(db);
    client = new PispiClient({
      baseUrl: harness.baseUrl,
      tokenUrl: `${harness.baseUrl}/oauth/token`,
      ...CLIENT,
      timeoutMs: 5_000,
    });
    receiver = new CallbackReceiver();
    await client.createWebhook({
      callbackUrl: await receiver.start(),
      alias: SIKA_ACCOUNT,
      events: ['PAIEMENT_ENVOYE', 'PAIEMENT_REJETE'],
    });
  });

  afterAll(async () => {
    await receiver.stop();
    await harness.process.stop();
    await db.drop();
  });

  const eventOf = (txId: string) =>
    waitFor(() =>
      receiver.received
        .map((callback) => WebhookEventsList.parse(JSON.parse(callback.body)).data[0])
        .find((event) => event?.txId === txId),
    );

  it('pays the default test account (+225 0000000100): ENVOYE, then PAIEMENT_ENVOYE and IRREVOCABLE', async () => {
    const request = virement('+225 0000000100');
    const answer = await client.createPaiement(request);
    expect(answer).toMatchObject({
      txId: request.txId,
      statut: 'ENVOYE',
      payeNom: 'Marchand Test Sika',
      payePays: 'CI',
      categorie: '733',
    });
    expect(answer.end2endId).toHaveLength(35);
    expect(await eventOf(request.txId)).toMatchObject({
      evCode: 'PAIEMENT_ENVOYE',
      end2endId: answer.end2endId,
      montant: 4_000,
      alias: SIKA_ACCOUNT,
      client: 'Marchand Test Sika',
    });
    expect(await client.getPaiement(request.txId)).toMatchObject({ statut: 'IRREVOCABLE' });
  });

  it.each([
    ['+2250000000106', 'AC06'],
    ['+2250000000108', 'AB08'],
  ])('has the bank of %s reject the transfer: ENVOYE, then PAIEMENT_REJETE %s', async (alias, reason) => {
    const request = virement(alias);
    expect((await client.createPaiement(request)).statut).toBe('ENVOYE');
    expect(await eventOf(request.txId)).toMatchObject({ evCode: 'PAIEMENT_REJETE', motif: reason });
    expect(await client.getPaiement(request.txId)).toMatchObject({ statut: 'REJETE', statutRaison: reason });
  });

  it('rejects a transfer to +225 0000000123 at once with BE23, though its name lookup succeeds', async () => {
    const lookup = await client.createPaiement(virement('+2250000000123', { confirmation: true }));
    expect(lookup).toMatchObject({ statut: 'INITIE', payeNom: 'Compte Test Supprime' });
    const request = virement('+2250000000123');
    expect(await client.createPaiement(request)).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23' });
  });

  it('answers an unknown alias with REJETE BE23 and no name, name lookup included', async () => {
    for (const confirmation of [true, false]) {
      const answer = await client.createPaiement(virement('+2250000000199', { confirmation }));
      expect(answer).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23' });
      expect(answer).not.toHaveProperty('payeNom');
    }
  });

  it('rejects a txId used before with REJETE DU03, keeping the first transfer', async () => {
    const request = virement('+2250000000100', { confirmation: true });
    await client.createPaiement(request);
    expect(await client.createPaiement(request)).toMatchObject({ statut: 'REJETE', statutRaison: 'DU03' });
    expect(await client.getPaiement(request.txId)).toMatchObject({ statut: 'INITIE' });
  });

  it('looks a payee up (INITIE with payeNom), then drops (204) or sends the transfer; a second decision is 403', async () => {
    const dropped = virement('+2250000000100', { confirmation: true, montant: 1 });
    expect(await client.createPaiement(dropped)).toMatchObject({
      statut: 'INITIE',
      payeNom: 'Marchand Test Sika',
    });
    expect(await client.confirmPaiement(dropped.txId, false)).toBeNull();
    await expect(client.confirmPaiement(dropped.txId, true)).rejects.toMatchObject({ status: 403 });

    const confirmed = virement('+2250000000100', { confirmation: true });
    await client.createPaiement(confirmed);
    expect(await client.confirmPaiement(confirmed.txId, true)).toMatchObject({ statut: 'ENVOYE' });
    expect(await eventOf(confirmed.txId)).toMatchObject({ evCode: 'PAIEMENT_ENVOYE' });
    expect(receiver.received.some((callback) => callback.body.includes(dropped.txId))).toBe(false);

    const unknown = client.confirmPaiement('po_nosuchtransfer', false);
    await expect(unknown).rejects.toBeInstanceOf(PispiProblemError);
    await expect(unknown).rejects.toMatchObject({ status: 404 });
  });

  it('answers 400 Problem7807 naming every bad field, and 404 for an unknown transfer', async () => {
    const tokenResponse = await fetch(`${harness.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const response = await fetch(`${harness.baseUrl}/paiements`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ txId: 'x'.repeat(36), payeurAlias: SIKA_ACCOUNT, montant: 1.5, compte: '1' }),
    });
    expect(response.status).toBe(400);
    const names = (Problem7807.parse(await response.json())['invalid-params'] ?? []).map(
      (param) => param.name,
    );
    expect(names).toEqual(expect.arrayContaining(['txId', 'payeAlias', 'confirmation']));
    expect(await client.getPaiement('po_unknown')).toBeNull();
  });
});
