import { randomUUID } from 'node:crypto';
import {
  PispiClient,
  PispiProblemError,
  Problem7807,
  verifySignature,
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
  } as PaiementImmediatRequest;
}

describe('pispi-simulator: payout destinations (POST /paiements)', () => {
  let db: TestSchema;
  let harness: SimulatorProcess;
  let client: PispiClient;
  let receiver: CallbackReceiver;
  let secret: string;

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
    ({ secret } = await client.createWebhook({
      callbackUrl: await receiver.start(),
      alias: SIKA_ACCOUNT,
      events: ['PAIEMENT_ENVOYE', 'PAIEMENT_REJETE'],
    }));
  });

  afterAll(async () => {
    await receiver.stop();
    await harness.process.stop();
    await db.drop();
  });

  const callbacksOf = (txId: string) =>
    receiver.received.filter((callback) => callback.body.includes(`"txId":"${txId}"`));

  /** The one signed callback about this transfer, its signature checked with the webhook's secret. */
  const eventOf = async (txId: string) => {
    const [callback] = await waitFor(() => callbacksOf(txId).length > 0 && callbacksOf(txId));
    const signature = callback?.headers['x-signature'];
    expect(verifySignature(Buffer.from(callback?.body ?? ''), secret, String(signature))).toBe(true);
    return WebhookEventsList.parse(JSON.parse(callback?.body ?? '')).data[0];
  };

  /** Raw HTTP with a token, for what the typed client never sends (bad bodies) or hides (statuses). */
  const raw = async (method: string, path: string, body?: unknown, authorized = true): Promise<Response> => {
    let authorization: string | undefined;
    if (authorized) {
      const response = await fetch(`${harness.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: CLIENT.clientId,
          client_secret: CLIENT.clientSecret,
        }),
      });
      authorization = `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
    }
    return fetch(`${harness.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };

  const problemOf = async (response: Response) => {
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    return Problem7807.parse(await response.json());
  };

  it("pays the default test account (+225 0000000100): the document's ENVOYE, then PAIEMENT_ENVOYE and IRREVOCABLE", async () => {
    const request = virement('+225 0000000100');
    const answer = await client.createPaiement(request);
    expect(answer).toEqual({
      ...request,
      statut: 'ENVOYE',
      confirmation: false,
      payeNom: 'Marchand Test Sika',
      payePays: 'CI',
      end2endId: expect.stringMatching(/^E.{34}$/),
      dateDemande: expect.any(String),
      dateConfirmation: answer.dateDemande,
      dateEnvoi: expect.any(String),
    });
    expect(await eventOf(request.txId)).toEqual({
      evCode: 'PAIEMENT_ENVOYE',
      evDate: expect.any(String),
      txId: request.txId,
      end2endId: answer.end2endId,
      montant: 4_000,
      alias: SIKA_ACCOUNT,
      client: 'Marchand Test Sika',
      motif: 'Sika payout',
    });
    expect(await client.getPaiement(request.txId)).toMatchObject({
      statut: 'IRREVOCABLE',
      categorie: '733',
      end2endId: answer.end2endId,
      dateIrrevocabilite: expect.any(String),
    });
  });

  it.each([
    ['+2250000000106', 'AC06'],
    ['+2250000000108', 'AB08'],
  ])('has the bank of %s reject the transfer: ENVOYE, then PAIEMENT_REJETE %s', async (alias, reason) => {
    const request = virement(alias);
    expect((await client.createPaiement(request)).statut).toBe('ENVOYE');
    expect(await eventOf(request.txId)).toMatchObject({
      evCode: 'PAIEMENT_REJETE',
      motif: reason,
      alias: SIKA_ACCOUNT,
    });
    expect(await client.getPaiement(request.txId)).toMatchObject({ statut: 'REJETE', statutRaison: reason });
  });

  it('rejects a transfer to +225 0000000123 at once with BE23 and no name, though its name lookup succeeds', async () => {
    const lookup = await client.createPaiement(virement('+2250000000123', { confirmation: true }));
    expect(lookup).toMatchObject({ statut: 'INITIE', payeNom: 'Compte Test Supprime', payePays: 'CI' });
    const request = virement('+2250000000123');
    const answer = await client.createPaiement(request);
    expect(answer).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23', confirmation: false });
    expect(answer).not.toHaveProperty('payeNom');
    expect(await client.getPaiement(request.txId)).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(callbacksOf(request.txId)).toEqual([]);
  });

  it('answers an unknown alias with REJETE BE23 and no name, name lookup included', async () => {
    for (const confirmation of [true, false]) {
      const answer = await client.createPaiement(virement('+2250000000199', { confirmation }));
      expect(answer).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23', confirmation });
      expect(answer).not.toHaveProperty('payeNom');
      expect(answer).not.toHaveProperty('payePays');
    }
  });

  it('rejects a txId used before with REJETE DU03 naming the payee, keeping the first transfer', async () => {
    const request = virement('+2250000000100', { confirmation: true });
    const first = await client.createPaiement(request);
    const again = await client.createPaiement({ ...request, montant: 9_000 });
    expect(again).toMatchObject({
      txId: request.txId,
      montant: 9_000,
      statut: 'REJETE',
      statutRaison: 'DU03',
      payeNom: 'Marchand Test Sika',
      payePays: 'CI',
      dateReponse: expect.any(String),
    });
    expect(again.end2endId).not.toBe(first.end2endId);
    expect(await client.getPaiement(request.txId)).toMatchObject({ statut: 'INITIE', montant: 4_000 });
  });

  it('looks every test payee up with confirmation true: INITIE, payeNom, payePays, end2endId, dateDemande', async () => {
    for (const [alias, name] of [
      ['+2250000000100', 'Marchand Test Sika'],
      ['+2250000000123', 'Compte Test Supprime'],
      ['+2250000000106', 'Compte Test Bloque'],
      ['+2250000000108', 'Compte Test Hors Ligne'],
    ] as const) {
      const request = virement(alias, { confirmation: true, montant: 1 });
      expect(await client.createPaiement(request)).toEqual({
        ...request,
        statut: 'INITIE',
        payeNom: name,
        payePays: 'CI',
        end2endId: expect.any(String),
        dateDemande: expect.any(String),
      });
    }
  });

  it('drops a looked-up transfer with decision false (204): nothing moves, a repeat is 204, true is then 403', async () => {
    const dropped = virement('+2250000000100', { confirmation: true, montant: 1 });
    await client.createPaiement(dropped);
    const path = `/paiements/${dropped.txId}/confirmations`;
    const first = await raw('PUT', path, { decision: false });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    expect((await raw('PUT', path, { decision: false })).status).toBe(204);
    const refused = await raw('PUT', path, { decision: true });
    expect(refused.status).toBe(403);
    expect(await problemOf(refused)).toEqual({
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: 'Impossible de confirmer un paiement déjà annulé',
    });
    expect(await client.getPaiement(dropped.txId)).toMatchObject({ statut: 'REJETE' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(callbacksOf(dropped.txId)).toEqual([]);
  });

  it('sends a looked-up transfer with decision true (200 ENVOYE): a repeat answers it as it stands, false is 403', async () => {
    const confirmed = virement('+2250000000100', { confirmation: true });
    const lookup = await client.createPaiement(confirmed);
    const answer = await client.confirmPaiement(confirmed.txId, true);
    expect(answer).toEqual({
      ...confirmed,
      statut: 'ENVOYE',
      end2endId: lookup.end2endId,
      payeNom: 'Marchand Test Sika',
      payePays: 'CI',
      dateDemande: lookup.dateDemande,
      dateConfirmation: expect.any(String),
    });
    expect(await eventOf(confirmed.txId)).toMatchObject({ evCode: 'PAIEMENT_ENVOYE' });
    expect(await client.confirmPaiement(confirmed.txId, true)).toMatchObject({ statut: 'IRREVOCABLE' });
    const refused = await raw('PUT', `/paiements/${confirmed.txId}/confirmations`, { decision: false });
    expect(refused.status).toBe(403);
    expect((await problemOf(refused)).detail).toBe("Impossible d'annuler un paiement déjà confirmé");
    expect(callbacksOf(confirmed.txId)).toHaveLength(1);
  });

  it('answers 404 Problem7807 to a decision or a read about a transfer it does not have', async () => {
    const unknown = client.confirmPaiement('po_nosuchtransfer', false);
    await expect(unknown).rejects.toBeInstanceOf(PispiProblemError);
    await expect(unknown).rejects.toMatchObject({ status: 404 });
    expect(await client.getPaiement('po_unknown')).toBeNull();
    const response = await raw('GET', '/paiements/po_unknown');
    expect(response.status).toBe(404);
    expect((await problemOf(response)).status).toBe(404);
  });

  it('answers 400 Problem7807 naming every bad field, in either variant, unknown fields included', async () => {
    const namesOf = async (body: unknown, path = '/paiements', method = 'POST') => {
      const response = await raw(method, path, body);
      expect(response.status).toBe(400);
      return ((await problemOf(response))['invalid-params'] ?? []).map((param) => param.name).sort();
    };
    expect(
      await namesOf({ txId: 'x'.repeat(36), payeurAlias: SIKA_ACCOUNT, montant: 1.5, compte: '1' }),
    ).toEqual(['compte', 'confirmation', 'payeAlias', 'txId']);
    expect(
      await namesOf({
        ...virement('+2250000000100', { confirmation: true }),
        motif: 'm'.repeat(141),
        logoUrl: 'x',
      }),
    ).toEqual(['logoUrl', 'motif']);
    expect(await namesOf({ ...virement('+2250000000100'), montant: 10.5 })).toEqual(['montant']);
    expect(await namesOf({ ...virement('+2250000000100'), confirmation: 'false' })).toEqual(['confirmation']);
    const lookup = virement('+2250000000100', { confirmation: true });
    await client.createPaiement(lookup);
    const confirmations = `/paiements/${lookup.txId}/confirmations`;
    expect(await namesOf({ decision: 'yes' }, confirmations, 'PUT')).toEqual(['decision']);
    expect(await namesOf({ decision: true, motif: 'x' }, confirmations, 'PUT')).toEqual(['motif']);
    expect(await client.getPaiement(lookup.txId)).toMatchObject({ statut: 'INITIE' });
  });

  it('answers 401 Problem7807 to each operation without a valid token', async () => {
    const request = virement('+2250000000100');
    for (const [method, path, body] of [
      ['POST', '/paiements', request],
      ['GET', `/paiements/${request.txId}`, undefined],
      ['PUT', `/paiements/${request.txId}/confirmations`, { decision: false }],
    ] as const) {
      const response = await raw(method, path, body, false);
      expect(response.status).toBe(401);
      expect((await problemOf(response)).status).toBe(401);
    }
    expect(await client.getPaiement(request.txId)).toBeNull();
  });
});
