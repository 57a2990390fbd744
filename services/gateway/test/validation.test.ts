import { badCreationCases, VALID_BODY } from './support/creation-cases';
import { errorOf, startTestGateway, type TestGateway } from './support/gateway';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

/** Spec §2.2 and §8 through the real HTTP server: each bad input is a 400 naming its param, and nothing is created. */
describe('POST /v1/payments refuses bad input', () => {
  const cases = badCreationCases(new Date());

  it.each(cases.map((example) => [example.rule, example] as const))('%s', async (_rule, example) => {
    const before = gateway.peers.downstreamCalls().length;
    const response = await gateway.request('/v1/payments', { method: 'POST', body: example.body });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({
      type: 'invalid_request_error',
      code: example.code,
      request_id: expect.any(String),
    });
    expect(error.param).toBe(example.param);
    expect(gateway.peers.downstreamCalls()).toHaveLength(before);
  });

  it('while the valid body of those cases is accepted', async () => {
    const response = await gateway.request('/v1/payments', { method: 'POST', body: VALID_BODY });
    expect(response.status).toBe(200);
  });
});

describe('list queries refuse bad parameters', () => {
  it.each([
    ['/v1/payments?limit=0', 'parameter_invalid', 'limit'],
    ['/v1/payments?limit=101', 'parameter_invalid', 'limit'],
    ['/v1/payments?limit=ten', 'parameter_invalid', 'limit'],
    ['/v1/payments?limit=2.5', 'parameter_invalid', 'limit'],
    ['/v1/payments?limit=1e1', 'parameter_invalid', 'limit'],
    ['/v1/payouts?limit=0x10', 'parameter_invalid', 'limit'],
    ['/v1/balance_transactions?limit=%205', 'parameter_invalid', 'limit'],
    ['/v1/payments?limit=1&limit=2', 'parameter_invalid', 'limit'],
    ['/v1/payments?status=paid', 'parameter_invalid', 'status'],
    [`/v1/payments?reference=${'r'.repeat(101)}`, 'parameter_invalid', 'reference'],
    ['/v1/payments?reference=%00', 'parameter_invalid', 'reference'],
    ['/v1/payments?reference=a%1Fb', 'parameter_invalid', 'reference'],
    ['/v1/payments?created_from=yesterday', 'parameter_invalid', 'created_from'],
    ['/v1/payments?created_to=2026-01-01', 'parameter_invalid', 'created_to'],
    ['/v1/payments?starting_after=po_123', 'parameter_invalid', 'starting_after'],
    ['/v1/payments?page=2', 'parameter_unknown', 'page'],
    ['/v1/balance_transactions?type=refund', 'parameter_invalid', 'type'],
    ['/v1/balance_transactions?limit=101', 'parameter_invalid', 'limit'],
    ['/v1/balance_transactions?starting_after=pay_123', 'parameter_invalid', 'starting_after'],
    ['/v1/balance_transactions?status=created', 'parameter_unknown', 'status'],
  ])('%s → %s', async (path, code, param) => {
    const before = gateway.peers.downstreamCalls().length;
    const response = await gateway.request(path);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code, param });
    expect(gateway.peers.downstreamCalls()).toHaveLength(before);
  });

  it.each([
    ['/v1/payments?limit=1'],
    ['/v1/payments?limit=100'],
    ['/v1/balance_transactions?limit=100&type=payout_reversal'],
  ])('accepts %s', async (path) => {
    expect((await gateway.request(path)).status).toBe(200);
  });
});
