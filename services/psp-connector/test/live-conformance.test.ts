import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pspV1 } from '@sika/contracts';
import { DOCUMENT_VARIABLE, locateApiBusinessDocument, signBody } from '@sika/pispi';
import { createGrpcClient, newId, type GrpcClient } from '@sika/platform';
import {
  createCertificateAuthority,
  resolveAmqpUrl,
  waitFor,
  type IssuedCertificate,
  clientOfAllowedCallers,
} from '@sika/testing';
import { Agent, fetch as undiciFetch } from 'undici';

import { participantAgent, readParticipantTls } from '../src/infra/participant-tls';
import { API_ROOT, ApiBusinessMock, TOKEN_PATH } from './api-business-mock';
import { createPspSchema, EventsTap, spawnConnector, type ConnectorProcess } from './support';
import { PSP_CONNECTOR_CALLERS } from '../src/transport/grpc/callers';

// Real processes (tsx compiles at start) on 2 shared cores.
jest.setTimeout(60_000);

const CLIENT = { id: 'sika-conformance', secret: randomBytes(16).toString('hex') };
const ALIASES = { test: 'sika-conformance-test', live: 'sika-conformance-live' };

/** The files a mode's TLS variables name, as a Kubernetes Secret would be mounted. */
interface TlsFiles {
  cert: string;
  key: string;
  ca: string;
}

function writeTls(directory: string, name: string, identity: IssuedCertificate, caPem: string): TlsFiles {
  const files = {
    cert: path.join(directory, `${name}.crt`),
    key: path.join(directory, `${name}.key`),
    ca: path.join(directory, `${name}-ca.crt`),
  };
  writeFileSync(files.cert, identity.certificatePem);
  writeFileSync(files.key, identity.privateKeyPem, { mode: 0o600 });
  writeFileSync(files.ca, caPem);
  return files;
}

const agentFiles = (files: TlsFiles) => ({
  certFile: { variable: 'CERT', path: files.cert },
  keyFile: { variable: 'KEY', path: files.key },
  caFile: { variable: 'CA', path: files.ca },
});

/**
 * psp-connector in live mode (and test mode) against a validating mock of a participant's API Business built
 * from the document itself, over mutual TLS with certificates made here: every request it sends (token,
 * webhook registration, request-to-pay, name lookup, payout, fund return) must be one the document allows.
 */
/**
 * The document is not in the repository (packages/pispi/README.md says why and where to get it): found as the
 * schemas' conformance test finds it, this suite fails under CI=true without it and is skipped elsewhere.
 */
const located = locateApiBusinessDocument({
  env: process.env,
  repositoryRoot: path.resolve(__dirname, '../../..'),
  exists: existsSync,
});
if (located.kind === 'fail') {
  it('finds the API Business document', () => {
    throw new Error(located.reason);
  });
}
if (located.kind === 'skip') {
  // eslint-disable-next-line no-console
  console.warn(located.reason);
  it.todo(
    `check psp-connector's requests against the API Business document: not found (set ${DOCUMENT_VARIABLE})`,
  );
}
const documentPath = located.kind === 'run' ? located.path : '';
const describeWithDocument = located.kind === 'run' ? describe : describe.skip;

describeWithDocument('psp-connector against the API Business document, over mutual TLS', () => {
  let directory: string;
  let sika: TlsFiles;
  let mock: ApiBusinessMock;
  let origin: string;
  let events: EventsTap;
  let dropSchema: () => Promise<void>;
  let connector: ConnectorProcess;
  let client: GrpcClient<pspV1.PspConnectorServiceClient>;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'psp-conformance-'));
    // The participant's CA signs its server certificate and the client certificate it issued to Sika.
    const participantCa = await createCertificateAuthority('Participant CA');
    const [server, sikaClient] = await Promise.all([
      participantCa.issue('participant'),
      participantCa.issue('sika-psp-connector'),
    ]);
    sika = writeTls(directory, 'sika', sikaClient, participantCa.certificatePem);
    ({ mock, origin } = await ApiBusinessMock.start({
      documentPath,
      certificatePem: server.certificatePem,
      privateKeyPem: server.privateKeyPem,
      clientCaPem: participantCa.certificatePem,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
    }));
    const schema = await createPspSchema();
    dropSchema = () => schema.drop();
    events = await EventsTap.open();
    const tokenUrl = `${origin}${TOKEN_PATH}`;
    const mode = (name: 'TEST' | 'LIVE', alias: string) => ({
      [`PISPI_${name}_BASE_URL`]: `${origin}${API_ROOT}`,
      [`PISPI_${name}_TOKEN_URL`]: tokenUrl,
      [`PISPI_${name}_CLIENT_ID`]: CLIENT.id,
      [`PISPI_${name}_CLIENT_SECRET`]: CLIENT.secret,
      [`PISPI_${name}_PAYEE_ALIAS`]: alias,
      [`PISPI_${name}_TLS_CERT_FILE`]: sika.cert,
      [`PISPI_${name}_TLS_KEY_FILE`]: sika.key,
      [`PISPI_${name}_TLS_CA_FILE`]: sika.ca,
    });
    connector = await spawnConnector({
      DATABASE_URL: schema.databaseUrl,
      DATABASE_SCHEMA: schema.schema,
      AMQP_URL: await resolveAmqpUrl(),
      EVENTS_EXCHANGE: events.exchange,
      REFUND_REQUESTS_QUEUE: events.queueName('psp-conformance.refund-requests'),
      PAYOUT_TRANSFERS_QUEUE: events.queueName('psp-conformance.payout-transfers'),
      PISPI_FUND_RETURN_POLL_INTERVAL: '200ms',
      PISPI_PAYOUT_POLL_INTERVAL: '200ms',
      PISPI_INVOICE_POLL_INTERVAL: '200ms',
      ...mode('TEST', ALIASES.test),
      ...mode('LIVE', ALIASES.live),
    });
    client = await clientOfAllowedCallers(PSP_CONNECTOR_CALLERS, (tls) =>
      createGrpcClient(pspV1.PspConnectorServiceClient, connector.grpcAddress, { deadlineMs: 15_000, tls }),
    );
  });

  afterAll(async () => {
    client?.close();
    await connector?.process.stop();
    await mock?.stop();
    await events?.close();
    await dropSchema?.();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const seen = (operationId: string) => () => mock.operations.includes(operationId);
  const newTxId = () => `att_${randomBytes(12).toString('hex')}`;
  const send = (livemode: boolean, txId: string, onDelivery = false) =>
    client.sendPaymentRequest({
      livemode,
      txId,
      payerAlias: '+225 0700000001',
      amount: 15_000n,
      reason: 'Commande 42',
      reference: 'order-42',
      expiresAt: new Date(Date.now() + 10 * 60_000),
      onDelivery,
    });

  it('registers each mode’s callback URL with a token of the client-credentials grant', () => {
    expect(mock.operations.filter((operation) => operation === 'webhookCreer')).toHaveLength(2);
    expect(mock.operations).toContain('token');
    expect(mock.secretFor(ALIASES.live)).toMatch(/^xsk_/);
  });

  it('sends requests-to-pay the document allows: immediate (521) and an invoice (401), read back', async () => {
    expect(await send(true, newTxId())).toMatchObject({
      outcome: pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT,
    });
    expect(await send(true, newTxId(), true)).toMatchObject({
      outcome: pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT,
    });
    // Its acceptance shows only in its status, which is read.
    await waitFor(seen('demandePaiementRecuperer'), { description: 'the invoice read back' });
  });

  it('looks a payee up and drops the transfer: POST /paiements with confirmation, then PUT …/confirmations', async () => {
    const answer = await client.lookupPayee({ livemode: true, alias: '+225 0700000100' });
    expect(answer).toMatchObject({ found: true, holderName: 'Marchand Conforme' });
    expect(mock.operations).toContain('paiementConfirmer');
  });

  it('sends a payout transfer', async () => {
    events.requestPayoutTransfer({
      livemode: true,
      payoutId: newId('po'),
      payeeAlias: '+225 0700000100',
      amount: 5_000n,
      reason: 'Versement Sika',
    });
    await waitFor(() => mock.operations.filter((operation) => operation === 'paiementCreer').length >= 2, {
      description: 'the payout transfer at the participant',
    });
  });

  it('returns a received payment (fund return) once its callback named the transfer', async () => {
    const txId = newTxId();
    await send(false, txId);
    const body = JSON.stringify({
      data: [
        {
          evCode: 'PAIEMENT_RECU',
          evDate: new Date().toISOString(),
          txId,
          end2endId: `E2E${randomBytes(12).toString('hex').toUpperCase()}`,
          montant: 15_000,
          alias: ALIASES.test,
        },
      ],
      meta: { total: 1 },
    });
    const callback = await fetch(`${connector.httpUrl}/pispi/callbacks/test`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature': signBody(body, mock.secretFor(ALIASES.test)),
      },
      body,
    });
    expect(callback.status).toBe(200);
    const paid = await events.waitFor(txId);
    events.requestRefund(txId, paid.update.endToEndId ?? '', 15_000n);
    await waitFor(seen('retourFondsEnvoyer'), { description: 'the fund return at the participant' });
  });

  it('sent nothing the document does not allow', () => {
    expect(mock.violations).toEqual([]);
    expect([...new Set(mock.operations)].sort()).toEqual([
      'demandePaiementCreer',
      'demandePaiementRecuperer',
      'paiementConfirmer',
      'paiementCreer',
      'retourFondsEnvoyer',
      'token',
      'webhookCreer',
    ]);
  });

  it('would have failed: the mock records what the document refuses (after the check above)', async () => {
    const agent = participantAgent(4, agentFiles(sika));
    const basic = Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64');
    const post = (url: string, headers: Record<string, string>, body: string) =>
      undiciFetch(url, { method: 'POST', headers, body, dispatcher: agent });
    const form = { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      (await post(`${origin}${TOKEN_PATH}`, form, 'grant_type=client_credentials&scope=everything')).status,
    ).toBe(400);
    const token = (await (
      await post(`${origin}${TOKEN_PATH}`, form, 'grant_type=client_credentials&scope=paiement.write')
    ).json()) as { access_token: string };
    const paiement = {
      txId: 'po_1',
      payeurAlias: 'a',
      payeAlias: 'b',
      montant: 1,
      confirmation: false,
      extra: 1,
    };
    const response = await post(
      `${origin}${API_ROOT}/paiements`,
      { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      JSON.stringify(paiement),
    );
    expect(response.status).toBe(400);
    expect(mock.violations).toEqual([
      { request: `POST ${TOKEN_PATH}`, problems: ['scopes not in the document: everything'] },
      {
        request: `POST ${API_ROOT}/paiements (paiementCreer)`,
        problems: expect.arrayContaining([expect.stringContaining('additional properties')]),
      },
    ]);
    await agent.close();
  });

  describe('the mutual TLS itself', () => {
    /** An exchange with the participant: answered 401 without a token, if the TLS session is established. */
    const exchange = (dispatcher: Agent) =>
      undiciFetch(`${origin}${API_ROOT}/webhooks/unknown`, { dispatcher });

    it('reaches the participant with the client certificate, trusting its CA', async () => {
      const agent = participantAgent(4, agentFiles(sika));
      expect((await exchange(agent)).status).toBe(401);
      await agent.close();
    });

    it('is refused by the participant without a client certificate', async () => {
      const agent = new Agent({ connect: { ca: readParticipantTls(agentFiles(sika)).ca } });
      await expect(exchange(agent)).rejects.toThrow();
      await agent.close();
    });

    it('trusts no other CA than the one configured for the participant', async () => {
      const otherCa = await createCertificateAuthority('Another CA');
      const otherCaFile = path.join(directory, 'other-ca.crt');
      writeFileSync(otherCaFile, otherCa.certificatePem);
      const agent = participantAgent(4, {
        ...agentFiles(sika),
        caFile: { variable: 'CA', path: otherCaFile },
      });
      await expect(exchange(agent)).rejects.toThrow();
      await agent.close();
    });

    it('refuses to start with a key that is not the certificate’s, or a file that is not PEM, naming the variable', async () => {
      const stranger = await (await createCertificateAuthority('Stranger CA')).issue('stranger');
      const strangerKey = path.join(directory, 'stranger.key');
      writeFileSync(strangerKey, stranger.privateKeyPem);
      expect(() =>
        readParticipantTls({ ...agentFiles(sika), keyFile: { variable: 'KEY', path: strangerKey } }),
      ).toThrow('KEY: not the private key of the certificate of CERT');
      expect(() =>
        readParticipantTls({ ...agentFiles(sika), caFile: { variable: 'CA', path: strangerKey } }),
      ).toThrow(`CA: ${strangerKey} is not a PEM certificate`);
      expect(() =>
        readParticipantTls({ ...agentFiles(sika), certFile: { variable: 'CERT', path: '/nonexistent.crt' } }),
      ).toThrow('CERT: cannot read /nonexistent.crt (ENOENT)');
    });
  });
});
