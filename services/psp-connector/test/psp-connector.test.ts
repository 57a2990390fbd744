import { randomBytes } from 'node:crypto';
import { PAYMENT_REQUEST_UPDATES, pspV1 } from '@sika/contracts';
import { PispiClient, signBody, type WebhookEventsList } from '@sika/pispi';
import { AppError, createGrpcClient, SecretBox, type GrpcClient } from '@sika/platform';
import { resolveAmqpUrl, scanIndexOf, waitFor, type TestSchema, clientOfAllowedCallers } from '@sika/testing';

import {
  CLIENT,
  createSimulatorSchema,
  spawnSimulator,
  type SimulatorProcess,
} from '../../pispi-simulator/test/support';
import { fingerprintOf } from '../src/domain/payment-request';
import { toDemandePaiement } from '../src/domain/pispi-transformers';
import {
  CALLBACK_SECRET_KEY,
  createPspSchema,
  EventsTap,
  spawnConnector,
  type ConnectorProcess,
} from './support';
import { PSP_CONNECTOR_CALLERS } from '../src/transport/grpc/callers';

// Real processes (tsx compiles at start) on 2 shared cores: generous bounds, though a run takes seconds.
jest.setTimeout(60_000);

const PAYEE_ALIAS = 'sika-test-collect';
const { PayerDecision, PaymentRequestOutcome } = pspV1;

const newTxId = (): string => `att_${randomBytes(12).toString('hex')}`;
const inFiveMinutes = (): Date => new Date(Date.now() + 5 * 60_000);

describe('psp-connector with the pispi-simulator', () => {
  let simulatorDb: TestSchema;
  let pspDb: TestSchema;
  let simulator: SimulatorProcess;
  let events: EventsTap;
  let connectorEnv: Record<string, string>;
  let connector: ConnectorProcess;
  let client: GrpcClient<pspV1.PspConnectorServiceClient>;

  beforeAll(async () => {
    [simulatorDb, pspDb, events] = await Promise.all([
      createSimulatorSchema(),
      createPspSchema(),
      EventsTap.open(),
    ]);
    simulator = await spawnSimulator(simulatorDb);
    connectorEnv = {
      DATABASE_URL: pspDb.databaseUrl,
      DATABASE_SCHEMA: pspDb.schema,
      AMQP_URL: await resolveAmqpUrl(),
      EVENTS_EXCHANGE: events.exchange,
      PISPI_TEST_BASE_URL: simulator.baseUrl,
      PISPI_TEST_CLIENT_ID: CLIENT.clientId,
      PISPI_TEST_CLIENT_SECRET: CLIENT.clientSecret,
      PISPI_TEST_PAYEE_ALIAS: PAYEE_ALIAS,
      REFUND_REQUESTS_QUEUE: events.queueName('psp-test.refund-requests'),
      PAYOUT_TRANSFERS_QUEUE: events.queueName('psp-test.payout-transfers'),
      PISPI_FUND_RETURN_POLL_INTERVAL: '200ms',
      PISPI_PAYOUT_POLL_INTERVAL: '200ms',
    };
    connector = await spawnConnector(connectorEnv);
    client = await clientOfAllowedCallers(PSP_CONNECTOR_CALLERS, (tls) =>
      createGrpcClient(pspV1.PspConnectorServiceClient, connector.grpcAddress, { deadlineMs: 10_000, tls }),
    );
  });

  afterAll(async () => {
    client?.close();
    await connector?.process.stop();
    await simulator?.process.stop();
    await events?.close();
    await Promise.all([simulatorDb?.drop(), pspDb?.drop()]);
  });

  const send = (
    txId: string,
    payerAlias: string,
    amount = 15_000n,
    expiresAt = inFiveMinutes(),
    onDelivery = false,
  ) =>
    client.sendPaymentRequest({
      livemode: false,
      txId,
      payerAlias,
      amount,
      reason: 'Commande 42',
      reference: 'order-42',
      expiresAt,
      onDelivery,
    });

  /**
   * The simulator's log lines about requests with this txId (one per POST it received), once at least one
   * has been read from its output: the log is written before the answer, but read here asynchronously.
   */
  const simulatorSaw = async (txId: string): Promise<string[]> => {
    const lines = (): string[] =>
      simulator.process
        .output()
        .split('\n')
        .filter((line) => line.includes(`"tx_id":"${txId}"`) && line.includes('"msg":"demande'));
    await waitFor(() => lines().length > 0, { description: `the simulator's log of ${txId}` });
    return lines();
  };

  const pspQuery = <Row extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
    pspDb.query<Row>(sql, values);

  it('registered its callback URL with the simulator at start', async () => {
    const [row] = await pspQuery<{ callback_url: string; webhook_id: string }>(
      'SELECT * FROM scheme_webhooks',
    );
    expect(row?.callback_url).toBe(`${connector.httpUrl}/pispi/callbacks/test`);
    const webhooks = await simulatorDb.query('SELECT alias, events FROM webhooks WHERE deleted_at IS NULL');
    expect(webhooks).toEqual([
      {
        alias: PAYEE_ALIAS,
        events: [
          'PAIEMENT_RECU',
          'RTP_REJETE',
          'RETOUR_ENVOYE',
          'RETOUR_REJETE',
          'PAIEMENT_ENVOYE',
          'PAIEMENT_REJETE',
        ],
      },
    ]);
  });

  it('alias +225 0000000001: SENT, then PaymentRequestUpdated PAID is published from the signed callback', async () => {
    const txId = newTxId();
    const startedAt = Date.now();
    expect(await send(txId, '+225 0000000001')).toEqual({
      outcome: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT,
    });

    const message = await events.waitFor(txId);
    expect(message.routingKey).toBe('psp.payment_request.updated');
    expect(message.update).toMatchObject({
      livemode: false,
      txId,
      decision: PayerDecision.PAYER_DECISION_PAID,
      amount: 15_000n,
    });
    expect(message.update.endToEndId).toMatch(/^E[0-9A-Za-z]{34}$/);
    expect(message.update.occurredAt?.getTime()).toBeGreaterThanOrEqual(startedAt - 1_000);
    expect(message.update.reasonCode).toBeUndefined();

    const [row] = await pspQuery(
      'SELECT outcome, decision, payer_alias_masked, payment_end2end_id FROM payment_requests WHERE tx_id = $1',
      [txId],
    );
    expect(row).toEqual({
      outcome: 'SENT',
      decision: 'PAID',
      payer_alias_masked: expect.not.stringContaining('0000000001'),
      payment_end2end_id: message.update.endToEndId,
    });
    // Aliases never appear in clear in the connector's logs.
    expect(connector.process.output()).not.toMatch(/0000000001/);

    // The scheme's exchanges, the outbox and the pool on the operations port; the published event is counted
    // once the relay's batch commits, which may follow its arrival here.
    const sample = async (name: string, labels: string[]) => {
      const scraped = await (await fetch(`${connector.opsUrl}/metrics`)).text();
      const line = scraped
        .split('\n')
        .find((each) => each.startsWith(`${name}{`) && labels.every((label) => each.includes(label)));
      return Number(line?.slice(line.lastIndexOf(' ') + 1));
    };
    const request = ['mode="test"', 'operation="POST /demandes-paiements"'];
    expect(await sample('sika_pispi_requests_total', [...request, 'outcome="ok"'])).toBeGreaterThan(0);
    expect(await sample('sika_pispi_request_duration_seconds_count', request)).toBeGreaterThan(0);
    const published = ['routing_key="psp.payment_request.updated"', 'mode="none"'];
    await waitFor(async () => (await sample('sika_events_published_total', published)) > 0, {
      description: 'the published update counted',
    });
    expect(await sample('sika_outbox_oldest_unsent_age_seconds', [])).toBeGreaterThanOrEqual(0);
    expect(await sample('sika_db_pool_saturated_total', [])).toBe(0);
  });

  it('alias +225 0000000005: ALIAS_UNKNOWN (REJETE BE23) at once, and no event', async () => {
    const txId = newTxId();
    expect(await send(txId, '+225 0000000005')).toEqual({
      outcome: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_ALIAS_UNKNOWN,
      reasonCode: 'BE23',
    });
    expect(events.for(txId)).toEqual([]);
  });

  it('alias +225 0000000006: SENT, then FAILED with the bank failure reason AG10', async () => {
    const txId = newTxId();
    expect((await send(txId, '+225 0000000006')).outcome).toBe(
      PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT,
    );
    expect((await events.waitFor(txId)).update).toMatchObject({
      decision: PayerDecision.PAYER_DECISION_FAILED,
      reasonCode: 'AG10',
    });
  });

  it("alias +225 0000000003: the request runs out at the payment's expires_at, not two minutes later", async () => {
    const txId = newTxId();
    const expiresAt = new Date(Date.now() + 2_000);
    expect((await send(txId, '+225 0000000003', 15_000n, expiresAt)).outcome).toBe(
      PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT,
    );
    const [demande] = await simulatorDb.query<{ limit: string }>(
      `SELECT request->>'dateLimitePaiement' AS limit FROM demandes WHERE tx_id = $1`,
      [txId],
    );
    expect(demande?.limit).toBe(expiresAt.toISOString());
    expect((await events.waitFor(txId)).update).toMatchObject({
      decision: PayerDecision.PAYER_DECISION_EXPIRED,
      reasonCode: 'AEXR',
    });
  });

  it('on delivery, alias +225 0000000004: an invoice (401) whose acceptance is read from its status, then paid', async () => {
    const txId = newTxId();
    const expiresAt = new Date(Date.now() + 3 * 86_400_000);
    expect((await send(txId, '+225 0000000004', 15_000n, expiresAt, true)).outcome).toBe(
      PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT,
    );
    const [demande] = await simulatorDb.query<{ request: Record<string, unknown> }>(
      'SELECT request FROM demandes WHERE tx_id = $1',
      [txId],
    );
    const day = expiresAt.toISOString().slice(0, 10);
    expect(demande?.request).toMatchObject({
      categorie: '401',
      dateLimitePaiement: day,
      dateLimiteReponse: day,
    });

    const accepted = await events.waitFor(txId);
    expect(accepted.update).toMatchObject({
      decision: PayerDecision.PAYER_DECISION_ACCEPTED_DEFERRED,
      amount: 0n,
    });
    const paid = await fetch(`${simulator.baseUrl}/simulator/demandes-paiements/${txId}/paiement`, {
      method: 'POST',
    });
    expect(paid.status).toBe(200);
    await waitFor(() => events.for(txId).length === 2, { description: 'the PAID update' });
    expect(events.for(txId).map(({ update }) => update.decision)).toEqual([
      PayerDecision.PAYER_DECISION_ACCEPTED_DEFERRED,
      PayerDecision.PAYER_DECISION_PAID,
    ]);
    const [row] = await pspQuery('SELECT decision, on_delivery FROM payment_requests WHERE tx_id = $1', [
      txId,
    ]);
    expect(row).toEqual({ decision: 'PAID', on_delivery: true });
  });

  it('returns money whole when payments asks: PUT retours, then psp.fund_return.updated SENT from RETOUR_ENVOYE', async () => {
    const txId = newTxId();
    await send(txId, '+225 0000000001');
    const paid = await events.waitFor(txId);
    const endToEndId = paid.update.endToEndId ?? '';
    events.requestRefund(txId, endToEndId, 15_000n);
    events.requestRefund(txId, endToEndId, 15_000n);
    const [sent] = await waitFor(() => {
      const ended = events.fundReturns.filter((update) => update.txId === txId);
      return ended.length > 0 && ended;
    });
    expect(sent).toMatchObject({
      txId,
      endToEndId,
      status: pspV1.FundReturnStatus.FUND_RETURN_STATUS_SENT,
      amount: 15_000n,
    });
    const [row] = await pspQuery('SELECT status, attempts, end2end_id FROM fund_returns WHERE tx_id = $1', [
      txId,
    ]);
    expect(row).toEqual({ status: 'sent', attempts: 1, end2end_id: paid.update.endToEndId });
  });

  it('sends a rejected return again until RETOUR_ENVOYE (alias …07 rejects the first)', async () => {
    const txId = newTxId();
    await send(txId, '+225 0000000007');
    await fetch(`${simulator.baseUrl}/simulator/demandes-paiements/${txId}/paiement`, { method: 'POST' });
    const paid = await events.waitFor(txId);
    events.requestRefund(txId, paid.update.endToEndId ?? '', 15_000n);
    await waitFor(() => events.fundReturns.some((update) => update.txId === txId), { timeoutMs: 20_000 });
    expect(events.fundReturns.filter((update) => update.txId === txId)).toMatchObject([
      { status: pspV1.FundReturnStatus.FUND_RETURN_STATUS_SENT },
    ]);
    const [row] = await pspQuery('SELECT status, attempts, last_reason FROM fund_returns WHERE tx_id = $1', [
      txId,
    ]);
    expect(row).toEqual({ status: 'sent', attempts: 2, last_reason: 'AC06' });
    const verdicts = await pspQuery<{ ev_code: string; effect: string }>(
      `SELECT ev_code, effect FROM scheme_callback_events WHERE tx_id = $1 AND ev_code LIKE 'RETOUR%' ORDER BY received_at`,
      [txId],
    );
    expect(verdicts).toEqual([
      { ev_code: 'RETOUR_REJETE', effect: 'applied' },
      { ev_code: 'RETOUR_ENVOYE', effect: 'published' },
    ]);
  });

  it('returns nothing that did not arrive: a transfer never received on the attempt is never sent back', async () => {
    const txId = newTxId();
    await send(txId, '+2250000000002');
    await events.waitFor(txId);
    events.requestRefund(txId, 'E00000000000000000000000000000000X', 15_000n);
    const refused = `no transfer E00000000000000000000000000000000X was received on ${txId}`;
    await waitFor(() => connector.process.output().includes(refused), {
      description: `the refund request of ${txId} failing`,
    });
    expect(await pspQuery('SELECT tx_id FROM fund_returns WHERE tx_id = $1', [txId])).toEqual([]);
  });

  it('refuses a request without the payment deadline', async () => {
    const failure = await client
      .sendPaymentRequest({
        livemode: false,
        txId: newTxId(),
        payerAlias: '+2250000000001',
        amount: 100n,
        expiresAt: undefined,
        onDelivery: false,
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'parameter_missing', param: 'expires_at' });
  });

  it('alias +225 0000000002: SENT, then REJECTED with the payer refusal reason', async () => {
    const txId = newTxId();
    expect((await send(txId, '+2250000000002')).outcome).toBe(
      PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT,
    );
    expect((await events.waitFor(txId)).update).toMatchObject({
      decision: PayerDecision.PAYER_DECISION_REJECTED,
      reasonCode: 'BE05',
    });
  });

  it('answers a repeated tx_id with the recorded outcome, the scheme having been called once', async () => {
    const sent = newTxId();
    const rejected = newTxId();
    const first = await send(sent, '+225 0000000001');
    const firstRejected = await send(rejected, '+225 0000000005');
    await events.waitFor(sent);

    expect(await send(sent, '+225 00 00 00 00 01')).toEqual(first);
    expect(await send(rejected, '+225 0000000005')).toEqual(firstRejected);
    expect(await simulatorSaw(sent)).toHaveLength(1);
    expect(await simulatorSaw(rejected)).toHaveLength(1);
    expect(events.for(sent)).toHaveLength(1);
  });

  it('asks the scheme before sending again a request recorded by a call whose answer was lost', async () => {
    const txId = newTxId();
    const request = {
      txId,
      payerAlias: '+225 0000000001',
      amount: 15_000n,
      reason: 'Commande 42',
      reference: 'order-42',
      expiresAt: inFiveMinutes(),
      onDelivery: false,
    };
    await pspQuery(
      `INSERT INTO payment_requests (tx_id, livemode, amount, fingerprint, payer_alias_masked, created_at, updated_at)
       VALUES ($1, false, 15000, $2, 'masked', now(), now())`,
      // What that call recorded: the request as SendPaymentRequest reads it, the alias in the scheme's form.
      [txId, fingerprintOf({ mode: 'test', ...request, payerAlias: '+2250000000001' })],
    );
    const scheme = new PispiClient({
      baseUrl: simulator.baseUrl,
      tokenUrl: `${simulator.baseUrl}/oauth/token`,
      ...CLIENT,
    });
    await scheme.createDemandePaiement(
      toDemandePaiement(
        { mode: 'test', ...request, payerAlias: '+2250000000001' },
        { payeeAlias: PAYEE_ALIAS, now: new Date(), paymentDeadlineMs: 120_000 },
      ),
    );

    expect((await send(txId, request.payerAlias)).outcome).toBe(
      PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT,
    );
    expect(await simulatorSaw(txId)).toHaveLength(1);
  });

  it('gives concurrent calls with one tx_id the same outcome, the scheme having accepted one request', async () => {
    const txId = newTxId();
    const outcomes = await Promise.all([send(txId, '+225 0000000001'), send(txId, '+225 0000000001')]);
    expect(outcomes).toEqual([
      { outcome: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT },
      { outcome: PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT },
    ]);
    await events.waitFor(txId);
    const received = (await simulatorSaw(txId)).filter((line) => line.includes('demande received'));
    expect(received).toHaveLength(1);
  });

  it('refuses a tx_id reused for a different request', async () => {
    const txId = newTxId();
    await send(txId, '+225 0000000005');
    const failure = await send(txId, '+225 0000000005', 16_000n).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'idempotency_key_reused', param: 'tx_id' });
    expect(await simulatorSaw(txId)).toHaveLength(1);
  });

  it('answers service_unavailable in live mode, which is not configured', async () => {
    const failure = await client
      .sendPaymentRequest({
        livemode: true,
        txId: newTxId(),
        payerAlias: '+2250000000001',
        amount: 100n,
        expiresAt: inFiveMinutes(),
        onDelivery: false,
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'service_unavailable' });
  });

  describe('callback endpoint', () => {
    const callbackBody = (
      txId: string,
      end2endId = `E${randomBytes(17).toString('hex')}`,
      alias = PAYEE_ALIAS,
    ): string => {
      const list: WebhookEventsList = {
        data: [
          {
            evCode: 'PAIEMENT_RECU',
            evDate: new Date().toISOString(),
            txId,
            end2endId,
            montant: 15_000,
            client: 'Awa Traoré',
            alias,
          },
        ],
        meta: { total: 1 },
      };
      return JSON.stringify(list);
    };
    const postCallback = (body: string, signature: string | undefined) =>
      fetch(`${connector.httpUrl}/pispi/callbacks/test`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(signature !== undefined && { 'x-signature': signature }),
        },
        body,
      });
    const decisionOf = async (txId: string) =>
      (
        await pspQuery<{ decision: string | null }>(
          'SELECT decision FROM payment_requests WHERE tx_id = $1',
          [txId],
        )
      )[0]?.decision;
    /** How many psp.payment_request.updated about this request the outbox holds. */
    const updatesInOutbox = async (txId: string) =>
      (
        await pspQuery<{ payload: Buffer }>('SELECT payload FROM outbox WHERE routing_key = $1', [
          PAYMENT_REQUEST_UPDATES.routingKey,
        ])
      ).filter(({ payload }) => PAYMENT_REQUEST_UPDATES.codec.decode(payload).txId === txId).length;
    /** The secret the participant signs with (psp-connector keeps it sealed). */
    const secret = async (): Promise<string> =>
      (
        await simulatorDb.query<{ secret: string }>(
          'SELECT secret FROM webhooks WHERE deleted_at IS NULL AND alias = $1',
          [PAYEE_ALIAS],
        )
      )[0]?.secret ?? '';

    it('refuses a bad or missing X-Signature with 401 and no effect', async () => {
      const txId = newTxId();
      await send(txId, '+225 0000000005');
      const body = callbackBody(txId);
      for (const signature of [
        undefined,
        signBody(body, 'not-the-secret'),
        signBody(`${body} `, await secret()),
      ]) {
        const response = await postCallback(body, signature);
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({
          error: { type: 'authentication_error', code: 'signature_invalid', param: 'X-Signature' },
        });
      }
      expect(await pspQuery('SELECT 1 FROM scheme_callback_events WHERE tx_id = $1', [txId])).toEqual([]);
      expect(await updatesInOutbox(txId)).toBe(0);
      expect(await decisionOf(txId)).toBe(null);
    });

    it('applies a redelivered callback once: one event, the repeat counted as a duplicate', async () => {
      const txId = newTxId();
      await send(txId, '+225 0000000003');
      const body = callbackBody(txId);
      const signature = signBody(body, await secret());
      const first = await postCallback(body, signature);
      const second = await postCallback(body, signature);
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ published: 1, duplicates: 0 });
      expect(await second.json()).toMatchObject({ published: 0, duplicates: 1 });
      await events.waitFor(txId);
      const outbox = await pspQuery<{ count: string }>(
        "SELECT count(*) FROM scheme_callback_events WHERE tx_id = $1 AND effect = 'published'",
        [txId],
      );
      expect(outbox).toEqual([{ count: '1' }]);
      expect(events.for(txId)).toHaveLength(1);
    });

    it('applies concurrent copies of a callback once: one decision, one event, one update published', async () => {
      const txId = newTxId();
      await send(txId, '+225 0000000003');
      const body = callbackBody(txId);
      const signature = signBody(body, await secret());
      const answers = await Promise.all(
        Array.from(
          { length: 6 },
          async () => (await (await postCallback(body, signature)).json()) as { duplicates: number },
        ),
      );
      expect(answers).toEqual(
        expect.arrayContaining([expect.objectContaining({ published: 1, duplicates: 0 })]),
      );
      expect(answers.filter((answer) => answer.duplicates === 1)).toHaveLength(5);
      await events.waitFor(txId);
      expect(await pspQuery('SELECT effect FROM scheme_callback_events WHERE tx_id = $1', [txId])).toEqual([
        { effect: 'published' },
      ]);
      expect(await decisionOf(txId)).toBe('PAID');
      expect(await updatesInOutbox(txId)).toBe(1);
    });

    it('writes nothing for an event recorded before, even on a request still without a decision', async () => {
      const txId = newTxId();
      await send(txId, '+225 0000000003');
      const end2endId = `E${randomBytes(17).toString('hex')}`;
      await pspQuery(
        `INSERT INTO scheme_callback_events (mode, ev_code, end2end_id, occurrence, tx_id, event, effect, received_at)
         VALUES ('test', 'PAIEMENT_RECU', $1, '', $2, '{}', 'stale', now())`,
        [end2endId, txId],
      );
      const body = callbackBody(txId, end2endId);
      const response = await postCallback(body, signBody(body, await secret()));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ published: 0, duplicates: 1 });
      expect(await decisionOf(txId)).toBe(null);
      expect(await updatesInOutbox(txId)).toBe(0);
    });

    it('changes nothing with a refusal after the payment: recorded as stale, the request stays paid', async () => {
      const txId = newTxId();
      await send(txId, '+225 0000000003');
      const paid = callbackBody(txId);
      await postCallback(paid, signBody(paid, await secret()));
      await events.waitFor(txId);
      const refused = JSON.stringify({
        data: [
          {
            evCode: 'RTP_REJETE',
            evDate: new Date().toISOString(),
            txId,
            end2endId: `E${randomBytes(17).toString('hex')}`,
            montant: 15_000,
            motif: 'AC06',
          },
        ],
        meta: { total: 1 },
      });
      const response = await postCallback(refused, signBody(refused, await secret()));
      expect(await response.json()).toMatchObject({ published: 0, duplicates: 0 });
      expect(await decisionOf(txId)).toBe('PAID');
      expect(
        await pspQuery(
          'SELECT ev_code, effect FROM scheme_callback_events WHERE tx_id = $1 ORDER BY received_at',
          [txId],
        ),
      ).toEqual([
        { ev_code: 'PAIEMENT_RECU', effect: 'published' },
        { ev_code: 'RTP_REJETE', effect: 'stale' },
      ]);
      expect(await updatesInOutbox(txId)).toBe(1);
    });

    it("records the event without the payer's name or alias", async () => {
      const txId = newTxId();
      await send(txId, '+225 0000000003');
      const body = callbackBody(txId);
      await postCallback(body, signBody(body, await secret()));
      const [stored] = await pspQuery<{ event: Record<string, unknown> }>(
        'SELECT event FROM scheme_callback_events WHERE tx_id = $1',
        [txId],
      );
      expect(stored?.event).toMatchObject({ evCode: 'PAIEMENT_RECU', txId, montant: 15_000 });
      expect(Object.keys(stored?.event ?? {})).not.toEqual(expect.arrayContaining(['client']));
      expect(Object.keys(stored?.event ?? {})).not.toEqual(expect.arrayContaining(['alias']));
    });

    it('records a signed event about an unknown txId without publishing anything', async () => {
      const txId = newTxId();
      const body = callbackBody(txId);
      const response = await postCallback(body, signBody(body, await secret()));
      expect(await response.json()).toMatchObject({ published: 0, duplicates: 0 });
      expect(await pspQuery('SELECT effect FROM scheme_callback_events WHERE tx_id = $1', [txId])).toEqual([
        { effect: 'unmatched' },
      ]);
    });

    it("publishes a payment to another account than Sika's payee alias as such, for payments never to credit it", async () => {
      const txId = newTxId();
      await send(txId, '+225 0000000003');
      const body = callbackBody(txId, undefined, 'someone-else');
      await postCallback(body, signBody(body, await secret()));
      expect((await events.waitFor(txId)).update).toMatchObject({
        decision: PayerDecision.PAYER_DECISION_PAID,
        payeeMismatch: true,
      });
    });

    it("checks signatures against the mode's registration as read at most a second ago", async () => {
      const accepted = async (secretOfSigner: string) => {
        const body = callbackBody(newTxId());
        return (await postCallback(body, signBody(body, secretOfSigner))).status === 200;
      };
      const [stored] = await pspQuery<{ webhook_id: string; secret_ciphertext: string }>(
        "SELECT webhook_id, secret_ciphertext FROM scheme_webhooks WHERE mode = 'test'",
      );
      if (stored === undefined) throw new Error('no test-mode registration');
      const box = new SecretBox(Buffer.from(CALLBACK_SECRET_KEY, 'base64'));
      const replacement = randomBytes(24).toString('hex');
      const sealed = box.seal(replacement, `psp.scheme_webhooks:test:${stored.webhook_id}`);
      const original = await secret();
      expect(await accepted(original)).toBe(true);

      await pspQuery("UPDATE scheme_webhooks SET secret_ciphertext = $1 WHERE mode = 'test'", [sealed]);
      try {
        await waitFor(() => accepted(replacement), { description: 'the new secret to be accepted' });
        expect(await accepted(original)).toBe(false);
      } finally {
        await pspQuery("UPDATE scheme_webhooks SET secret_ciphertext = $1 WHERE mode = 'test'", [
          stored.secret_ciphertext,
        ]);
        await waitFor(() => accepted(original), { description: 'the original secret to be accepted again' });
      }
    });

    it('answers 400 naming the field of a signed body that is not a WebhookEventsList', async () => {
      const body = JSON.stringify({ data: [{ evCode: 'PAIEMENT_RECU', txId: 'x' }], meta: { total: 1 } });
      const response = await postCallback(body, signBody(body, await secret()));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: 'parameter_invalid', param: 'data.0.evDate' },
      });
    });
  });

  it('keeps its registration across a restart (same webhook, one at the simulator)', async () => {
    const [before] = await pspQuery<{ webhook_id: string }>('SELECT webhook_id FROM scheme_webhooks');
    await connector.process.stop();
    client.close();
    connector = await spawnConnector(connectorEnv, Number(new URL(connector.httpUrl).port));
    client = await clientOfAllowedCallers(PSP_CONNECTOR_CALLERS, (tls) =>
      createGrpcClient(pspV1.PspConnectorServiceClient, connector.grpcAddress, { deadlineMs: 10_000, tls }),
    );
    await waitFor(() => connector.process.output().includes('scheme callback URL already registered'));
    expect(await pspQuery('SELECT webhook_id FROM scheme_webhooks')).toEqual([before]);
    expect(await simulatorDb.query('SELECT count(*) FROM webhooks WHERE deleted_at IS NULL')).toEqual([
      { count: '1' },
    ]);

    const txId = newTxId();
    await send(txId, '+225 0000000001');
    expect((await events.waitFor(txId)).update.decision).toBe(PayerDecision.PAYER_DECISION_PAID);
  });

  it('reads the invoices to watch through an index that holds only undecided invoices on delivery', async () => {
    // An immediate payment's request then writes no entry there, and the watch never walks the history.
    expect(
      await scanIndexOf(
        pspDb.pool,
        `SELECT tx_id FROM payment_requests WHERE on_delivery AND outcome = 'SENT' AND decision IS NULL
           AND watch_until > now() ORDER BY checked_at ASC NULLS FIRST LIMIT 10`,
      ),
    ).toEqual({ index: 'payment_requests_watch_idx', predicate: '(on_delivery AND (decision IS NULL))' });
  });
});
