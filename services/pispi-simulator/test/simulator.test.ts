import { createHmac, randomUUID } from 'node:crypto';
import {
  Paiement,
  PispiClient,
  Problem7807,
  WebhookEventsList,
  type DemandePaiementRequest,
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

const PAYEE_ALIAS = 'sika-test-payee';

function demande(
  payeurAlias: string,
  overrides: Partial<DemandePaiementRequest> = {},
): DemandePaiementRequest {
  return {
    txId: `att_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    payeurAlias,
    payeAlias: PAYEE_ALIAS,
    confirmation: false,
    montant: 5000,
    categorie: '521',
    dateLimitePaiement: new Date(Date.now() + 120_000).toISOString(),
    motif: 'Commande 1234',
    ...overrides,
  };
}

/** An independent X-Signature check: hex HMAC-SHA256 of the raw body with the webhook secret. */
function signatureOf(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

describe('pispi-simulator', () => {
  let db: TestSchema;
  let harness: SimulatorProcess;
  let client: PispiClient;
  let receiver: CallbackReceiver;
  let webhookSecret: string;

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
    const registered = await client.createWebhook({ callbackUrl: await receiver.start() });
    webhookSecret = registered.secret;
  });

  afterAll(async () => {
    await receiver.stop();
    await harness.process.stop();
    await db.drop();
  });

  const token = async (): Promise<string> => {
    const response = await fetch(`${harness.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        ...{ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret },
      }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };

  const post = async (path: string, body: string, authorization?: string): Promise<Response> =>
    fetch(`${harness.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
      body,
    });

  const pay = (txId: string): Promise<Response> =>
    fetch(`${harness.baseUrl}/simulator/demandes-paiements/${txId}/paiement`, { method: 'POST' });

  const callbacksFor = (txId: string) =>
    receiver.received.filter((callback) => callback.body.includes(`"txId":"${txId}"`));

  describe('OAuth2 token endpoint', () => {
    it('refuses wrong client credentials with 401 Problem7807', async () => {
      const basic = Buffer.from(`${CLIENT.clientId}:wrong`).toString('base64');
      const response = await fetch(`${harness.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
        body: 'grant_type=client_credentials',
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(Problem7807.parse(await response.json())).toMatchObject({ status: 401, title: 'Unauthorized' });
    });

    it('refuses another grant type with 400 naming grant_type', async () => {
      const response = await fetch(`${harness.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=password',
      });
      expect(response.status).toBe(400);
      const problem = Problem7807.parse(await response.json());
      expect(problem['invalid-params']?.map((param) => param.name)).toEqual(['grant_type']);
    });

    it('answers 401 Problem7807 to an API call without a valid token', async () => {
      for (const authorization of [undefined, 'Bearer forged.token']) {
        const response = await post(
          '/demandes-paiements',
          JSON.stringify(demande('+2250000000001')),
          authorization,
        );
        expect(response.status).toBe(401);
        expect(Problem7807.parse(await response.json()).status).toBe(401);
      }
    });
  });

  describe('POST /demandes-paiements validation', () => {
    it('answers 400 Problem7807 with invalid-params naming every violation', async () => {
      const bad = {
        ...demande('+2250000000001', { txId: 'x'.repeat(36), motif: 'm'.repeat(141) }),
        categorie: '500',
        payerAlias: 'typo',
      } as Record<string, unknown>;
      delete bad['payeAlias'];
      const response = await post('/demandes-paiements', JSON.stringify(bad), `Bearer ${await token()}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      const problem = Problem7807.parse(await response.json());
      expect(problem).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400 });
      expect(problem['invalid-params']?.map((param) => param.name).sort()).toEqual(
        ['categorie', 'motif', 'payeAlias', 'payerAlias', 'txId'].sort(),
      );
    });

    it('answers 400 Problem7807 to a body that is not JSON', async () => {
      const response = await post('/demandes-paiements', '{"txId": ', `Bearer ${await token()}`);
      expect(response.status).toBe(400);
      expect(Problem7807.parse(await response.json()).status).toBe(400);
    });

    it('names confirmation=true, which the simulator does not play', async () => {
      const response = await post(
        '/demandes-paiements',
        JSON.stringify(demande('+2250000000001', { confirmation: true })),
        `Bearer ${await token()}`,
      );
      expect(response.status).toBe(400);
      expect(Problem7807.parse(await response.json())['invalid-params']?.[0]?.name).toBe('confirmation');
    });
  });

  it('pays for alias +225 0000000001: ENVOYE, then a signed PAIEMENT_RECU callback, retried until accepted', async () => {
    receiver.failures = receiver.received.length + 1;
    const request = demande('+225 0000000001');
    const answer = await client.createDemandePaiement(request);
    expect(answer).toMatchObject({ txId: request.txId, statut: 'ENVOYE', payeurNom: 'Client Test Paie' });
    expect(answer.end2endId).toHaveLength(35);

    const [first, second] = await waitFor(
      () => callbacksFor(request.txId).length >= 2 && callbacksFor(request.txId),
      {
        description: 'the callback and its retry',
      },
    );
    expect(second?.body).toBe(first?.body);
    for (const callback of [first, second]) {
      expect(callback?.headers['x-signature']).toBe(signatureOf(callback?.body ?? '', webhookSecret));
      expect(callback?.headers['content-type']).toBe('application/json');
    }
    const list = WebhookEventsList.parse(JSON.parse(second?.body ?? ''));
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({
      evCode: 'PAIEMENT_RECU',
      txId: request.txId,
      montant: 5000,
      alias: PAYEE_ALIAS,
      client: 'Client Test Paie',
    });
    expect(list.data[0]?.end2endId).not.toBe(answer.end2endId);

    expect(await client.getDemandePaiement(request.txId)).toMatchObject({ statut: 'IRREVOCABLE' });
    // The delivery is recorded just after the receiver answered: wait for it rather than race it.
    const delivered = await waitFor(async () => {
      const rows = await db.query<{ attempts: number; delivered: boolean }>(
        `SELECT attempts, delivered_at IS NOT NULL AS delivered FROM notifications n
         JOIN demandes d ON d.id = n.demande_id WHERE d.tx_id = $1`,
        [request.txId],
      );
      return rows[0]?.delivered && rows;
    });
    expect(delivered).toEqual([{ attempts: 2, delivered: true }]);
  });

  it('rejects alias +225 0000000005 with REJETE BE23 and sends no callback', async () => {
    const request = demande('+225 0000000005');
    const answer = await client.createDemandePaiement(request);
    expect(answer).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23' });
    expect(answer).not.toHaveProperty('payeurNom');
    expect(await client.getDemandePaiement(request.txId)).toMatchObject({
      statut: 'REJETE',
      statutRaison: 'BE23',
    });
    // No payer behind the alias: nothing is scheduled, so no callback can follow.
    const scheduled = await db.query(
      'SELECT 1 FROM payer_decisions p JOIN demandes d ON d.id = p.demande_id WHERE d.tx_id = $1',
      [request.txId],
    );
    expect(scheduled).toEqual([]);
  });

  it('rejects a txId used before with REJETE DU03, keeping the first request', async () => {
    const request = demande('+2250000000005');
    await client.createDemandePaiement(request);
    const again = await client.createDemandePaiement({ ...request, payeurAlias: '+2250000000001' });
    expect(again).toMatchObject({ txId: request.txId, statut: 'REJETE', statutRaison: 'DU03' });
    expect(await client.getDemandePaiement(request.txId)).toMatchObject({ statutRaison: 'BE23' });
  });

  it('refuses for alias +225 0000000002 with an RTP_REJETE callback (BE05)', async () => {
    const request = demande('+2250000000002');
    expect((await client.createDemandePaiement(request)).statut).toBe('ENVOYE');
    const [callback] = await waitFor(
      () => callbacksFor(request.txId).length > 0 && callbacksFor(request.txId),
    );
    expect(WebhookEventsList.parse(JSON.parse(callback?.body ?? '')).data[0]).toMatchObject({
      evCode: 'RTP_REJETE',
      motif: 'BE05',
    });
    expect(await client.getDemandePaiement(request.txId)).toMatchObject({
      statut: 'REJETE',
      statutRaison: 'BE05',
    });
  });

  describe('the payer who pays later (alias +225 0000000004) and the pay operation', () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

    it('accepts an invoice (401): IRREVOCABLE without money and without callback, then pays when told', async () => {
      const request = demande('+225 0000000004', {
        categorie: '401',
        dateLimitePaiement: tomorrow,
        dateLimiteReponse: tomorrow,
      } as Partial<DemandePaiementRequest>);
      expect((await client.createDemandePaiement(request)).statut).toBe('ENVOYE');
      const accepted = await waitFor(async () => {
        const known = await client.getDemandePaiement(request.txId);
        return known?.statut === 'IRREVOCABLE' && known;
      });
      expect(accepted).toMatchObject({ categorie: '401', dateLimiteReponse: tomorrow });
      expect(accepted.dateIrrevocabilite).toBeDefined();
      expect(callbacksFor(request.txId)).toEqual([]);

      const paid = await pay(request.txId);
      expect(paid.status).toBe(200);
      expect(await paid.json()).toMatchObject({ txId: request.txId, statut: 'IRREVOCABLE' });
      const [callback] = await waitFor(
        () => callbacksFor(request.txId).length > 0 && callbacksFor(request.txId),
      );
      expect(WebhookEventsList.parse(JSON.parse(callback?.body ?? '')).data[0]).toMatchObject({
        evCode: 'PAIEMENT_RECU',
        montant: 5000,
      });
      const again = await pay(request.txId);
      expect(again.status).toBe(409);
      expect(Problem7807.parse(await again.json()).detail).toMatch(/IRREVOCABLE already/);
    });

    it('keeps an immediate request (521) waiting until paid', async () => {
      const request = demande('+2250000000004');
      expect((await client.createDemandePaiement(request)).statut).toBe('ENVOYE');
      expect((await pay(request.txId)).status).toBe(200);
      await waitFor(() => callbacksFor(request.txId).length > 0);
    });

    it('refuses to pay for any other payer, after the deadline, or an unknown request', async () => {
      const refusing = demande('+2250000000003');
      await client.createDemandePaiement(refusing);
      const other = await pay(refusing.txId);
      expect(other.status).toBe(409);
      expect(Problem7807.parse(await other.json()).detail).toMatch(/pays on request/);

      const late = demande('+2250000000004', {
        dateLimitePaiement: new Date(Date.now() + 500).toISOString(),
      });
      await client.createDemandePaiement(late);
      const expired = await waitFor(async () => {
        const known = await client.getDemandePaiement(late.txId);
        return known?.statut === 'REJETE' && known;
      });
      expect(expired.statutRaison).toBe('AEXR');
      expect((await pay(late.txId)).status).toBe(409);

      expect((await pay('unknown-tx')).status).toBe(404);
    });
  });

  describe('fund returns (PUT /paiements/{end2endId}/retours)', () => {
    const returnFunds = async (end2endId: string) => {
      const response = await fetch(`${harness.baseUrl}/paiements/${end2endId}/retours`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${await token()}` },
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const eventsOf = (txId: string) =>
      callbacksFor(txId).flatMap(({ body }) => WebhookEventsList.parse(JSON.parse(body)).data);
    const paidEnd2endId = async (txId: string): Promise<string> => {
      const [paid] = await waitFor(() => {
        const events = eventsOf(txId).filter(({ evCode }) => evCode === 'PAIEMENT_RECU');
        return events.length > 0 && events;
      });
      return paid?.end2endId ?? '';
    };

    it('returns a received payment whole: INITIE, then RETOUR_ENVOYE naming the payment; asked again, as it is', async () => {
      const request = demande('+2250000000001');
      await client.createDemandePaiement(request);
      const end2endId = await paidEnd2endId(request.txId);

      const asked = await returnFunds(end2endId);
      expect(asked.status).toBe(200);
      expect(Paiement.parse(asked.body)).toMatchObject({
        txId: request.txId,
        end2endId,
        retourStatut: 'INITIE',
      });
      const [sent] = await waitFor(() => {
        const events = eventsOf(request.txId).filter(({ evCode }) => evCode === 'RETOUR_ENVOYE');
        return events.length > 0 && events;
      });
      expect(sent).toMatchObject({ end2endId, montant: 5000, txId: request.txId });
      expect((await returnFunds(end2endId)).body).toMatchObject({ retourStatut: 'IRREVOCABLE' });
    });

    it("sends again a return the payer's bank rejected (alias …07 rejects the first, AC06)", async () => {
      const request = demande('+2250000000007');
      await client.createDemandePaiement(request);
      await pay(request.txId);
      const end2endId = await paidEnd2endId(request.txId);

      await returnFunds(end2endId);
      const [rejected] = await waitFor(() => {
        const events = eventsOf(request.txId).filter(({ evCode }) => evCode === 'RETOUR_REJETE');
        return events.length > 0 && events;
      });
      expect(rejected).toMatchObject({ end2endId, motif: 'AC06' });
      expect((await returnFunds(end2endId)).body).toMatchObject({ retourStatut: 'INITIE' });
      await waitFor(() => eventsOf(request.txId).some(({ evCode }) => evCode === 'RETOUR_ENVOYE'));
    });

    it('answers 404 for a payment it never received', async () => {
      expect((await returnFunds('Eunknown')).status).toBe(404);
    });

    it('pays alias …08 one franc short', async () => {
      const request = demande('+2250000000008');
      await client.createDemandePaiement(request);
      await paidEnd2endId(request.txId);
      expect(eventsOf(request.txId)[0]).toMatchObject({ evCode: 'PAIEMENT_RECU', montant: 4999 });
    });
  });

  it('answers 404 Problem7807 for an unknown demande', async () => {
    await expect(client.getDemandePaiement('unknown-tx')).resolves.toBeNull();
    const response = await fetch(`${harness.baseUrl}/demandes-paiements/unknown-tx`, {
      headers: { authorization: `Bearer ${await token()}` },
    });
    expect(response.status).toBe(404);
    expect(Problem7807.parse(await response.json()).status).toBe(404);
  });

  it('serves GET and DELETE /webhooks/{id}', async () => {
    const registered = await client.createWebhook({
      callbackUrl: 'http://127.0.0.1:9/unused',
      events: ['RTP_REJETE'],
    });
    expect(await client.getWebhook(registered.id)).toMatchObject({
      id: registered.id,
      callbackUrl: 'http://127.0.0.1:9/unused',
      events: ['RTP_REJETE'],
    });
    expect(await client.getWebhook(registered.id)).not.toHaveProperty('secret');
    await expect(client.deleteWebhook(registered.id)).resolves.toBe(true);
    await expect(client.getWebhook(registered.id)).resolves.toBeNull();
    await expect(client.deleteWebhook(registered.id)).resolves.toBe(false);
  });

  it('keeps work across a restart: a payment due when the process was killed is called back by the next one', async () => {
    // Alone on the schema: no other simulator may answer in its place.
    await harness.process.stop();
    const slow = await spawnSimulator(db, { SIMULATOR_PAYER_DELAY: '1s' });
    const slowClient = new PispiClient({
      baseUrl: slow.baseUrl,
      tokenUrl: `${slow.baseUrl}/oauth/token`,
      ...CLIENT,
    });
    const request = demande('+2250000000001');
    expect((await slowClient.createDemandePaiement(request)).statut).toBe('ENVOYE');
    await slow.process.stop({ signal: 'SIGKILL' });
    expect(callbacksFor(request.txId)).toHaveLength(0);

    const next = await spawnSimulator(db);
    try {
      await waitFor(() => callbacksFor(request.txId).length > 0, {
        description: 'the callback after the restart',
      });
    } finally {
      await next.process.stop();
    }
  });
});
