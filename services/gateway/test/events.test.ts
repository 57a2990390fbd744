import { newId } from '@sika/platform';
import type { webhooksV1 } from '@sika/contracts';

import { errorOf, KEYS, SCOPES, startTestGateway, type TestGateway } from './support/gateway';

type Json = Record<string, unknown>;

let gateway: TestGateway;
const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 8, minute));
const paymentId = newId('pay');
const payoutId = newId('po');
/** Merchant A's test events, oldest first: two of one payment, one of another, one of a payout. */
let stored: Json[];

beforeAll(async () => {
  gateway = await startTestGateway();
  const { webhooks } = gateway.peers;
  stored = [
    webhooks.record(SCOPES.aTest, 'payment.request_sent', { id: paymentId, object: 'payment' }, at(1)),
    webhooks.record(SCOPES.aTest, 'payment.request_sent', { id: newId('pay'), object: 'payment' }, at(2)),
    webhooks.record(SCOPES.aTest, 'payment.succeeded', { id: paymentId, object: 'payment' }, at(3)),
    webhooks.record(SCOPES.aTest, 'payout.paid', { id: payoutId, object: 'payout' }, at(4)),
  ];
  webhooks.record(SCOPES.aLive, 'payment.succeeded', { id: newId('pay'), object: 'payment' }, at(5));
  webhooks.record(SCOPES.bTest, 'payment.succeeded', { id: newId('pay'), object: 'payment' }, at(6));
});
afterAll(() => gateway.close());

const lastList = () =>
  [...gateway.peers.webhooks.calls].reverse().find((call) => call.method === 'listEvents')
    ?.request as webhooksV1.ListEventsRequest;

async function list(query: string, key: string = KEYS.aTest) {
  const response = await gateway.request(`/v1/events${query}`, { key });
  expect(response.status).toBe(200);
  return (await response.json()) as { object: string; data: Json[]; has_more: boolean };
}

const ids = (page: { data: Json[] }) => page.data.map((event) => event['id']);
const storedIds = (...indexes: number[]) => indexes.map((index) => stored[index]?.['id']);

describe('GET /v1/events', () => {
  it("lists the key's mode's events in the list envelope, most recent first, 20 by default", async () => {
    const page = await list('');
    expect(page).toEqual({ object: 'list', data: [...stored].reverse(), has_more: false });
    expect(lastList()).toMatchObject({ scope: SCOPES.aTest, page: { limit: 20 } });
    expect(ids(await list('', KEYS.aLive))).toHaveLength(1);
    expect(ids(await list('', KEYS.bTest))).toHaveLength(1);
  });

  it('pages with limit, has_more and starting_after', async () => {
    const first = await list('?limit=3');
    expect({ ids: ids(first), hasMore: first.has_more }).toEqual({ ids: storedIds(3, 2, 1), hasMore: true });
    const second = await list(`?limit=3&starting_after=${String(stored[1]?.['id'])}`);
    expect({ ids: ids(second), hasMore: second.has_more }).toEqual({ ids: storedIds(0), hasMore: false });
  });

  it.each([
    ['type', '?type=payment.request_sent', [1, 0]],
    ['object_id of a payment', `?object_id=${paymentId}`, [2, 0]],
    ['object_id of a payout', `?object_id=${payoutId}`, [3]],
    ['created_from (inclusive)', `?created_from=${at(3).toISOString()}`, [3, 2]],
    ['created_to (exclusive)', `?created_to=${at(3).toISOString()}`, [1, 0]],
    [
      'all of them',
      `?type=payment.succeeded&object_id=${paymentId}&created_from=${at(3).toISOString()}`,
      [2],
    ],
  ])('filters by %s', async (_filter, query, expected) => {
    expect(ids(await list(query))).toEqual(storedIds(...expected));
  });

  it.each([
    ['type', '?type=payment.refunded'],
    ['type', '?type='],
    ['object_id', '?object_id=evt_123'],
    ['object_id', '?object_id=pay_'],
    ['created_from', '?created_from=yesterday'],
    ['created_to', '?created_to=2026-13-01T00:00:00Z'],
    ['limit', '?limit=0'],
    ['limit', '?limit=101'],
    ['starting_after', '?starting_after=pay_123'],
  ])('refuses a bad %s with 400 naming it, asking nobody', async (param, query) => {
    const calls = gateway.peers.webhooks.calls.length;
    const response = await gateway.request(`/v1/events${query}`);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'parameter_invalid', param });
    expect(gateway.peers.webhooks.calls).toHaveLength(calls);
  });

  it('refuses an unknown filter with 400 parameter_unknown naming it', async () => {
    const response = await gateway.request('/v1/events?status=paid');
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'parameter_unknown', param: 'status' });
  });

  it('answers another method 405', async () => {
    const response = await gateway.request('/v1/events', { method: 'POST', body: {} });
    expect(response.status).toBe(405);
  });
});

describe('GET /v1/events/{id}', () => {
  it('answers the event exactly as its webhooks carried it', async () => {
    const event = stored[2]!;
    const response = await gateway.request(`/v1/events/${String(event['id'])}`);
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual(event);
    const sent = gateway.peers.webhooks.events.find((candidate) => candidate.event.id === event['id']);
    expect(body).toBe(sent?.event.payload);
  });

  it("answers another merchant's, the other mode's, an unknown and a malformed id with the same 404", async () => {
    const event = String(stored[0]?.['id']);
    for (const [id, key] of [
      [event, KEYS.bTest],
      [event, KEYS.aLive],
      [newId('evt'), KEYS.aTest],
      ['pay_123', KEYS.aTest],
    ] as const) {
      const response = await gateway.request(`/v1/events/${id}`, { key });
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toMatchObject({
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
      });
    }
  });
});
