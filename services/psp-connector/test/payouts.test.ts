import { randomBytes } from 'node:crypto';
import { pspV1 } from '@sika/contracts';
import { PispiClient } from '@sika/pispi';
import { createGrpcClient, type GrpcClient } from '@sika/platform';
import { resolveAmqpUrl, waitFor, type TestSchema, clientOfAllowedCallers } from '@sika/testing';

import {
  CLIENT,
  createSimulatorSchema,
  spawnSimulator,
  type SimulatorProcess,
} from '../../pispi-simulator/test/support';
import {
  createPspSchema,
  EventsTap,
  FaultyLink,
  freePort,
  spawnConnector,
  type ConnectorProcess,
} from './support';
import { PSP_CONNECTOR_CALLERS } from '../src/transport/grpc/callers';

// Real processes (tsx compiles at start) on 2 shared cores: generous bounds, though a run takes seconds.
jest.setTimeout(60_000);

/** Sika's account at the test participant: payments are collected on it, payouts paid from it. */
const SIKA_ACCOUNT = 'sika-test-collect';
const { PAYOUT_TRANSFER_STATUS_PAID: PAID, PAYOUT_TRANSFER_STATUS_FAILED: FAILED } =
  pspV1.PayoutTransferStatus;

const newPayoutId = (): string => `po_${randomBytes(12).toString('hex')}`;
const transfer = (payeeAlias: string, livemode = false) => {
  const payoutId = newPayoutId();
  return { livemode, payoutId, payeeAlias, amount: 4_000n, reason: `Sika payout ${payoutId}` };
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * psp-connector's payouts against the real simulator, each way through a FaultyLink: connector → simulator
 * (the API Business) and simulator → connector (callbacks), so answers and callbacks can be lost for real.
 */
describe('psp-connector: payout transfers and payee lookups', () => {
  let simulatorDb: TestSchema;
  let pspDb: TestSchema;
  let simulator: SimulatorProcess;
  let events: EventsTap;
  let api: FaultyLink;
  let callbacks: FaultyLink;
  let connector: ConnectorProcess;
  let client: GrpcClient<pspV1.PspConnectorServiceClient>;

  beforeAll(async () => {
    [simulatorDb, pspDb, events] = await Promise.all([
      createSimulatorSchema(),
      createPspSchema(),
      EventsTap.open(),
    ]);
    simulator = await spawnSimulator(simulatorDb);
    const httpPort = await freePort();
    api = new FaultyLink(simulator.baseUrl);
    callbacks = new FaultyLink(`http://127.0.0.1:${httpPort}`);
    const [apiUrl, callbackUrl] = await Promise.all([api.start(), callbacks.start()]);
    connector = await spawnConnector(
      {
        DATABASE_URL: pspDb.databaseUrl,
        DATABASE_SCHEMA: pspDb.schema,
        AMQP_URL: await resolveAmqpUrl(),
        EVENTS_EXCHANGE: events.exchange,
        PSP_CALLBACK_PUBLIC_URL: callbackUrl,
        PISPI_TEST_BASE_URL: apiUrl,
        PISPI_TEST_CLIENT_ID: CLIENT.clientId,
        PISPI_TEST_CLIENT_SECRET: CLIENT.clientSecret,
        PISPI_TEST_PAYEE_ALIAS: SIKA_ACCOUNT,
        REFUND_REQUESTS_QUEUE: events.queueName('psp-test.refund-requests'),
        PAYOUT_TRANSFERS_QUEUE: events.queueName('psp-test.payout-transfers'),
        PISPI_TIMEOUT: '2s',
        PISPI_PAYOUT_POLL_INTERVAL: '200ms',
        // Long enough for a callback on a busy machine, short enough to test its loss.
        PISPI_PAYOUT_VERDICT_WAIT: '3s',
      },
      httpPort,
    );
    client = await clientOfAllowedCallers(PSP_CONNECTOR_CALLERS, (tls) =>
      createGrpcClient(pspV1.PspConnectorServiceClient, connector.grpcAddress, { deadlineMs: 10_000, tls }),
    );
  });

  afterAll(async () => {
    client?.close();
    await connector?.process.stop();
    await simulator?.process.stop();
    await Promise.all([api?.stop(), callbacks?.stop()]);
    await events?.close();
    await Promise.all([simulatorDb?.drop(), pspDb?.drop()]);
  });

  const transferRow = async (payoutId: string) =>
    (
      await pspDb.query('SELECT status, reason_code, end2end_id FROM payout_transfers WHERE payout_id = $1', [
        payoutId,
      ])
    )[0];
  const virements = (txId: string) =>
    simulatorDb.query<{ statut: string; request: Record<string, unknown> }>(
      'SELECT statut, request FROM virements WHERE tx_id = $1',
      [txId],
    );
  const updatesOf = (payoutId: string) =>
    events.payoutTransfers.filter((update) => update.payoutId === payoutId);
  /** What the signed callbacks about this transfer did, once at least one was recorded. */
  const callbackEffects = (payoutId: string) =>
    waitFor(
      async () => {
        const rows = await pspDb.query<{ ev_code: string; effect: string }>(
          'SELECT ev_code, effect FROM scheme_callback_events WHERE tx_id = $1',
          [payoutId],
        );
        return rows.length > 0 && rows;
      },
      { description: `the callback about ${payoutId}` },
    );
  const posts = (payoutId: string) =>
    api.exchangesAbout(payoutId).filter((exchange) => exchange === 'POST /paiements');
  const reads = (payoutId: string) =>
    api.exchangesAbout(payoutId).filter((exchange) => exchange === `GET /paiements/${payoutId}`);

  it("pays the default test account from Sika's account, once for a repeated request: PAID from the signed PAIEMENT_ENVOYE", async () => {
    const request = transfer('+2250000000100');
    events.requestPayoutTransfer(request);
    events.requestPayoutTransfer(request, `msg_again_${request.payoutId}`);
    events.requestPayoutTransfer(request);
    const update = await events.payoutTransferOf(request.payoutId);
    expect(update).toMatchObject({
      livemode: false,
      payoutId: request.payoutId,
      status: PAID,
      endToEndId: expect.stringMatching(/^E.{34}$/),
      occurredAt: expect.any(Date),
    });
    expect(update.reasonCode).toBeUndefined();
    const [sent] = await virements(request.payoutId);
    expect(sent?.request).toEqual({
      txId: request.payoutId,
      payeurAlias: SIKA_ACCOUNT,
      payeAlias: '+2250000000100',
      montant: 4_000,
      confirmation: false,
      motif: request.reason,
    });
    expect(await transferRow(request.payoutId)).toEqual({
      status: 'paid',
      reason_code: null,
      end2end_id: update.endToEndId,
    });
    expect(await callbackEffects(request.payoutId)).toEqual([
      { ev_code: 'PAIEMENT_ENVOYE', effect: 'published' },
    ]);
    await pause(500);
    expect(updatesOf(request.payoutId)).toHaveLength(1);
    expect(posts(request.payoutId)).toHaveLength(1);
    expect(await virements(request.payoutId)).toHaveLength(1);
  });

  it.each([
    ['+2250000000106', 'AC06'],
    ['+2250000000108', 'AB08'],
  ])('fails a payout to %s from the PAIEMENT_REJETE callback, with its reason %s', async (alias, reason) => {
    const request = transfer(alias);
    events.requestPayoutTransfer(request);
    expect(await events.payoutTransferOf(request.payoutId)).toMatchObject({
      status: FAILED,
      reasonCode: reason,
    });
    expect(await transferRow(request.payoutId)).toMatchObject({ status: 'failed', reason_code: reason });
    expect(await callbackEffects(request.payoutId)).toEqual([
      { ev_code: 'PAIEMENT_REJETE', effect: 'published' },
    ]);
    expect(await virements(request.payoutId)).toEqual([expect.objectContaining({ statut: 'REJETE' })]);
  });

  it('fails a payout to +2250000000123 with BE23 from the answer itself, no callback needed', async () => {
    const request = transfer('+2250000000123');
    events.requestPayoutTransfer(request);
    expect(await events.payoutTransferOf(request.payoutId)).toMatchObject({
      status: FAILED,
      reasonCode: 'BE23',
    });
    expect(await transferRow(request.payoutId)).toMatchObject({ status: 'failed', reason_code: 'BE23' });
    expect(callbacks.exchangesAbout(request.payoutId)).toEqual([]);
  });

  it.each([
    ['its connection is reset', 'reset_after'],
    ['a 502 takes its place', 'bad_gateway_after'],
    ['it never comes (timeout)', 'hang_after'],
  ] as const)(
    'reads back with GET, never POSTing again, a transfer the participant took but whose answer was lost: %s',
    async (_, kind) => {
      const request = transfer('+2250000000100');
      api.inject({ method: 'POST', path: '/paiements', bodyIncludes: request.payoutId, fault: { kind } });
      // The callback lost too, so that only the read-back can tell what became of it.
      callbacks.inject({
        method: 'POST',
        path: '/pispi/callbacks/test',
        bodyIncludes: request.payoutId,
        fault: { kind: 'swallow' },
      });
      events.requestPayoutTransfer(request);
      expect(await events.payoutTransferOf(request.payoutId)).toMatchObject({ status: PAID });
      expect(posts(request.payoutId)).toHaveLength(1);
      expect(reads(request.payoutId).length).toBeGreaterThan(0);
      expect(await virements(request.payoutId)).toEqual([expect.objectContaining({ statut: 'IRREVOCABLE' })]);
      await pause(500);
      expect(updatesOf(request.payoutId)).toHaveLength(1);
    },
  );

  it('sends again, once, a transfer the participant never got (503 before it was relayed)', async () => {
    const request = transfer('+2250000000100');
    api.inject({
      method: 'POST',
      path: '/paiements',
      bodyIncludes: request.payoutId,
      fault: { kind: 'answer', status: 503, problem: { title: 'Service Unavailable' } },
    });
    events.requestPayoutTransfer(request);
    expect(await events.payoutTransferOf(request.payoutId)).toMatchObject({ status: PAID });
    const exchanges = api.exchangesAbout(request.payoutId);
    // Read back first (404: never had it), then sent again.
    expect(exchanges.slice(0, 3)).toEqual([
      'POST /paiements',
      `GET /paiements/${request.payoutId}`,
      'POST /paiements',
    ]);
    expect(await virements(request.payoutId)).toHaveLength(1);
  });

  it('reads back a transfer whose POST is answered DU03 (an earlier try reached the participant)', async () => {
    const request = transfer('+2250000000100');
    const earlier = new PispiClient({
      baseUrl: simulator.baseUrl,
      tokenUrl: `${simulator.baseUrl}/oauth/token`,
      ...CLIENT,
    });
    callbacks.inject({
      method: 'POST',
      path: '/pispi/callbacks/test',
      bodyIncludes: request.payoutId,
      fault: { kind: 'swallow' },
    });
    await earlier.createPaiement({
      txId: request.payoutId,
      payeurAlias: SIKA_ACCOUNT,
      payeAlias: request.payeeAlias,
      montant: 4_000,
      confirmation: false,
      motif: request.reason,
    });
    events.requestPayoutTransfer(request);
    expect(await events.payoutTransferOf(request.payoutId)).toMatchObject({ status: PAID });
    expect(posts(request.payoutId)).toHaveLength(1);
    expect(reads(request.payoutId).length).toBeGreaterThan(0);
    expect(await virements(request.payoutId)).toHaveLength(1);
  });

  it.each([
    ['+2250000000100', PAID, undefined],
    ['+2250000000106', FAILED, 'AC06'],
  ])(
    'reads back a sent transfer whose callback is lost, after the verdict wait: %s',
    async (alias, status, reasonCode) => {
      const request = transfer(alias);
      callbacks.inject({
        method: 'POST',
        path: '/pispi/callbacks/test',
        bodyIncludes: request.payoutId,
        fault: { kind: 'swallow' },
      });
      events.requestPayoutTransfer(request);
      const update = await events.payoutTransferOf(request.payoutId);
      expect(update).toMatchObject({ status });
      expect(update.reasonCode).toBe(reasonCode);
      expect(callbacks.exchangesAbout(request.payoutId)).toEqual(['POST /pispi/callbacks/test']);
      expect(reads(request.payoutId).length).toBeGreaterThan(0);
      expect(posts(request.payoutId)).toHaveLength(1);
    },
  );

  it('fails a transfer the participant refuses outright (403), without a reason, logging its detail', async () => {
    const request = transfer('+2250000000100');
    api.inject({
      method: 'POST',
      path: '/paiements',
      bodyIncludes: request.payoutId,
      // The document's PaiementImmediatRefuseMontantInvalide.
      fault: {
        kind: 'answer',
        status: 403,
        problem: {
          title: 'Bad Request',
          detail: 'Plafond de paiement dépassé',
          'invalid-params': [{ name: 'montant', reason: 'Le montant dépasse le montant maximal autorisé' }],
        },
      },
    });
    events.requestPayoutTransfer(request);
    const update = await events.payoutTransferOf(request.payoutId);
    expect(update).toMatchObject({ status: FAILED });
    expect(update.reasonCode).toBeUndefined();
    expect(await transferRow(request.payoutId)).toMatchObject({ status: 'failed', reason_code: null });
    expect(posts(request.payoutId)).toHaveLength(1);
    expect(await virements(request.payoutId)).toEqual([]);
    await connector.process.waitForLine(
      (line) => line.includes(request.payoutId) && line.includes('Plafond de paiement dépassé'),
      5_000,
    );
  });

  it.each([
    [429, 1],
    [401, 2],
  ])(
    'makes the POST again after a pause when the participant did not take it (%s)',
    async (status, times) => {
      const request = transfer('+2250000000100');
      api.inject({
        method: 'POST',
        path: '/paiements',
        bodyIncludes: request.payoutId,
        fault: { kind: 'answer', status },
        times,
      });
      events.requestPayoutTransfer(request);
      expect(await events.payoutTransferOf(request.payoutId)).toMatchObject({ status: PAID });
      const exchanges = api.exchangesAbout(request.payoutId);
      expect(exchanges.slice(0, times + 1)).toEqual(Array(times + 1).fill('POST /paiements'));
      expect(await virements(request.payoutId)).toHaveLength(1);
    },
  );

  it('keeps a live payout waiting, unsent, while live mode is not configured', async () => {
    const request = transfer('+2250000000100', true);
    events.requestPayoutTransfer(request);
    await connector.process.waitForLine(
      (line) => line.includes(request.payoutId) && line.includes('not configured for live mode'),
      5_000,
    );
    expect(await transferRow(request.payoutId)).toMatchObject({ status: 'pending' });
    expect(api.exchangesAbout(request.payoutId)).toEqual([]);
    expect(updatesOf(request.payoutId)).toEqual([]);
  });

  describe('LookupPayee', () => {
    const lookups = () =>
      simulatorDb.query<{ tx_id: string; statut: string; montant: number }>(
        "SELECT tx_id, statut, (request->>'montant')::int AS montant FROM virements WHERE tx_id LIKE 'lkp_%'",
      );

    it('finds the holder of a test payee without moving money: INITIE, then dropped', async () => {
      expect(await client.lookupPayee({ livemode: false, alias: '+2250000000106' })).toEqual({
        found: true,
        holderName: 'Compte Test Bloque',
        holderCountry: 'CI',
      });
      expect(await client.lookupPayee({ livemode: false, alias: '+225 00 00 00 01 00' })).toMatchObject({
        found: true,
        holderName: 'Marchand Test Sika',
      });
      const dropped = (await lookups()).filter((lookup) => lookup.statut === 'ANNULE');
      expect(dropped).toHaveLength(2);
      for (const lookup of dropped) {
        expect(lookup).toMatchObject({ montant: 1 });
        expect(lookup.tx_id).toMatch(/^lkp_[0-9A-Za-z]{24}$/);
        expect(api.exchangesAbout(lookup.tx_id)).toEqual([
          'POST /paiements',
          `PUT /paiements/${lookup.tx_id}/confirmations`,
        ]);
      }
    });

    it('answers not found with the reason for an alias no account answers to', async () => {
      expect(await client.lookupPayee({ livemode: false, alias: '+2250000000199' })).toEqual({
        found: false,
        reasonCode: 'BE23',
      });
      expect(
        (await lookups()).some((lookup) => lookup.statut === 'ENVOYE' || lookup.statut === 'IRREVOCABLE'),
      ).toBe(false);
    });

    it('answers parameter_invalid (alias) to a 400, service_unavailable when the participant fails or is not configured', async () => {
      const inject = (alias: string, fault: Parameters<FaultyLink['inject']>[0]['fault']) =>
        api.inject({ method: 'POST', path: '/paiements', bodyIncludes: alias, fault });
      inject('+2250000000191', {
        kind: 'answer',
        status: 400,
        problem: { detail: 'Format du message invalide', 'invalid-params': [{ name: 'payeAlias' }] },
      });
      await expect(client.lookupPayee({ livemode: false, alias: '+2250000000191' })).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'alias',
      });
      inject('+2250000000192', { kind: 'answer', status: 503 });
      await expect(client.lookupPayee({ livemode: false, alias: '+2250000000192' })).rejects.toMatchObject({
        code: 'service_unavailable',
      });
      inject('+2250000000193', { kind: 'reset_after' });
      await expect(client.lookupPayee({ livemode: false, alias: '+2250000000193' })).rejects.toMatchObject({
        code: 'service_unavailable',
      });
      await expect(client.lookupPayee({ livemode: true, alias: '+2250000000100' })).rejects.toMatchObject({
        code: 'service_unavailable',
      });
    });
  });

  it('never logs a payee alias in clear', async () => {
    await waitFor(() => connector.process.output().includes('payee lookup'));
    const output = connector.process.output();
    for (const national of [
      '0000000100',
      '0000000106',
      '0000000108',
      '0000000123',
      '0000000199',
      '0000000191',
    ]) {
      expect(output).not.toContain(national);
    }
    expect(output).toContain('00******00');
  });
});
