import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { DemandePaiementRequest } from '../schemas/demande-paiement';
import { PispiNetworkError, PispiProblemError, PispiResponseError } from './errors';
import { PispiClient } from './pispi-client';

/** A scripted participant on a real local port: the client is exercised over real HTTP. */
class FakeParticipant {
  readonly tokenRequests: { authorization?: string; body: string }[] = [];
  readonly apiRequests: { method?: string; url?: string; authorization?: string; body: string }[] = [];
  tokenLifetimeSeconds = 3600;
  apiHandler: (request: IncomingMessage, response: ServerResponse, body: string) => void = (_, response) =>
    json(response, 200, { txId: 'tx1', statut: 'ENVOYE' });
  private issued = 0;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.url === '/oauth/token') {
          this.tokenRequests.push({ authorization: request.headers.authorization, body });
          this.issued += 1;
          json(response, 200, {
            access_token: `token-${this.issued}`,
            token_type: 'Bearer',
            expires_in: this.tokenLifetimeSeconds,
          });
          return;
        }
        this.apiRequests.push({
          method: request.method,
          url: request.url,
          authorization: request.headers.authorization,
          body,
        });
        this.apiHandler(request, response, body);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

function json(response: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  response.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

const demande: DemandePaiementRequest = {
  txId: 'tx1',
  payeurAlias: '+2250000000001',
  payeAlias: 'sika-test',
  confirmation: false,
  montant: 1500,
  categorie: '521',
  dateLimitePaiement: '2026-01-01T00:02:00.000Z',
};

describe('PispiClient', () => {
  let participant: FakeParticipant;
  let baseUrl: string;
  let now: number;
  let client: PispiClient;

  beforeEach(async () => {
    participant = new FakeParticipant();
    baseUrl = await participant.start();
    now = 1_000_000;
    client = new PispiClient({
      baseUrl: `${baseUrl}/piz/v1/`,
      tokenUrl: `${baseUrl}/oauth/token`,
      clientId: 'sika client',
      clientSecret: 's3cret:x',
      timeoutMs: 500,
      now: () => now,
    });
  });

  afterEach(() => participant.stop());

  it('gets a client-credentials token with HTTP Basic and reuses it until shortly before expiry', async () => {
    await Promise.all([client.createDemandePaiement(demande), client.createDemandePaiement(demande)]);
    expect(participant.tokenRequests).toHaveLength(1);
    const [tokenRequest] = participant.tokenRequests;
    const basic = Buffer.from('sika%20client:s3cret%3Ax').toString('base64');
    expect(tokenRequest?.authorization).toBe(`Basic ${basic}`);
    expect(new URLSearchParams(tokenRequest?.body).get('grant_type')).toBe('client_credentials');
    expect(participant.apiRequests.map((request) => request.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-1',
    ]);

    now += (3600 - 30) * 1000;
    await client.createDemandePaiement(demande);
    expect(participant.tokenRequests).toHaveLength(2);
    expect(participant.apiRequests[2]?.authorization).toBe('Bearer token-2');
  });

  it('posts the request as JSON under the base path and returns the validated answer', async () => {
    const answer = await client.createDemandePaiement(demande);
    expect(answer.statut).toBe('ENVOYE');
    expect(participant.apiRequests[0]?.method).toBe('POST');
    expect(participant.apiRequests[0]?.url).toBe('/piz/v1/demandes-paiements');
    expect(JSON.parse(participant.apiRequests[0]?.body ?? '')).toEqual(demande);
  });

  it('renews a refused token once and repeats the call', async () => {
    participant.apiHandler = (request, response) =>
      request.headers.authorization === 'Bearer token-1'
        ? json(response, 401, { title: 'Unauthorized', status: 401 }, 'application/problem+json')
        : json(response, 200, { statut: 'REJETE', statutRaison: 'BE23' });
    const answer = await client.createDemandePaiement(demande);
    expect(answer).toMatchObject({ statut: 'REJETE', statutRaison: 'BE23' });
    expect(participant.tokenRequests).toHaveLength(2);
  });

  it('turns an RFC 7807 answer into a PispiProblemError with its invalid-params', async () => {
    const problem = {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      'invalid-params': [{ name: 'txId', reason: 'too long' }],
    };
    participant.apiHandler = (_, response) => json(response, 400, problem, 'application/problem+json');
    const failure = await client.createDemandePaiement(demande).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PispiProblemError);
    expect(failure).toMatchObject({ status: 400, problem, retryable: false });
  });

  it('gives a status-only problem when an error answer has no RFC 7807 body', async () => {
    participant.apiHandler = (_, response) => response.writeHead(503).end('<html>down</html>');
    const failure = await client.createDemandePaiement(demande).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      status: 503,
      problem: { status: 503, title: 'Service Unavailable' },
      retryable: true,
    });
  });

  it('follows a redirect within the participant, sending the request again with its token', async () => {
    participant.apiHandler = (request, response) =>
      request.url === '/piz/v1/demandes-paiements'
        ? response.writeHead(307, { location: '/piz/v2/demandes-paiements' }).end()
        : json(response, 200, { txId: 'tx1', statut: 'ENVOYE' });
    await expect(client.createDemandePaiement(demande)).resolves.toMatchObject({ statut: 'ENVOYE' });
    expect(participant.apiRequests[1]).toMatchObject({
      method: 'POST',
      url: '/piz/v2/demandes-paiements',
      authorization: 'Bearer token-1',
    });
    expect(JSON.parse(participant.apiRequests[1]?.body ?? '')).toEqual(demande);
  });

  it('answers null for an unknown demande or webhook', async () => {
    participant.apiHandler = (_, response) =>
      json(response, 404, { status: 404 }, 'application/problem+json');
    await expect(client.getDemandePaiement('nope')).resolves.toBeNull();
    await expect(client.getWebhook('nope')).resolves.toBeNull();
    await expect(client.deleteWebhook('nope')).resolves.toBe(false);
  });

  it('rejects a success answer that is not what the document describes', async () => {
    participant.apiHandler = (_, response) => json(response, 200, { statut: 'PAYE' });
    await expect(client.createDemandePaiement(demande)).rejects.toBeInstanceOf(PispiResponseError);
  });

  it('requires the id and the secret in a webhook registration answer', async () => {
    participant.apiHandler = (_, response) =>
      json(response, 201, { callbackUrl: 'http://x.test/cb', id: 'w1' });
    await expect(client.createWebhook({ callbackUrl: 'http://x.test/cb' })).rejects.toBeInstanceOf(
      PispiResponseError,
    );
  });

  it("reads the document's answers to a transfer: ENVOYE without confirmation, INITIE, then a dropped lookup", async () => {
    // PaiementImmediatReponseCasSansConfirmation, as the document gives it.
    const envoye = {
      txId: '23552722',
      payeurAlias: '8b1b2499-3e50-435b-b757-ac7a83d8aa7f',
      payeAlias: '9b1b2499-3e50-435b-b757-ac7a83d8aa8c',
      montant: 150000,
      refDocType: 'INVS',
      refDocNumero: '1234567890',
      statut: 'ENVOYE',
      confirmation: false,
      payeNom: 'Entreprise XYZ',
      payePays: 'GW',
      dateDemande: '2023-02-21T15:30:01.250Z',
      dateConfirmation: '2023-02-21T15:30:01.250Z',
      end2endId: 'ESNB00120230221153554KXvozkpNvhUk9e',
    };
    participant.apiHandler = (_, response) => json(response, 200, envoye);
    const request = {
      txId: '23552722',
      payeurAlias: envoye.payeurAlias,
      payeAlias: envoye.payeAlias,
      montant: 150000,
      confirmation: false as const,
    };
    await expect(client.createPaiement(request)).resolves.toEqual(envoye);
    expect(participant.apiRequests[0]).toMatchObject({ method: 'POST', url: '/piz/v1/paiements' });

    participant.apiHandler = (request_, response) =>
      request_.method === 'PUT'
        ? // PaiementImmediatConfirmationReponseCasNon: a 200 ANNULE where the operation also documents 204.
          json(response, 200, { txId: '23552722', confirmation: true, statut: 'ANNULE' })
        : json(response, 200, { ...envoye, statut: 'INITIE', confirmation: true });
    await expect(client.createPaiement({ ...request, confirmation: true })).resolves.toMatchObject({
      statut: 'INITIE',
      payeNom: 'Entreprise XYZ',
    });
    await expect(client.confirmPaiement('23552722', false)).resolves.toBeNull();
    expect(participant.apiRequests.at(-1)).toMatchObject({
      method: 'PUT',
      url: '/piz/v1/paiements/23552722/confirmations',
      body: '{"decision":false}',
    });
  });

  it('gives up after the timeout with a retryable PispiNetworkError', async () => {
    participant.apiHandler = () => undefined;
    const failure = await client.createDemandePaiement(demande).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PispiNetworkError);
    expect(failure).toMatchObject({ retryable: true });
    expect((failure as Error).message).toContain('timed out');
  });

  it('reports a refused connection as a PispiNetworkError', async () => {
    await participant.stop();
    await expect(client.createDemandePaiement(demande)).rejects.toBeInstanceOf(PispiNetworkError);
  });
});
