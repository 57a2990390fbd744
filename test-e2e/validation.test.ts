import { badCreationCases, VALID_BODY } from '../services/gateway/test/support/creation-cases';
import { api } from './support/api';
import { createMerchant, type CreatedMerchant } from './support/cli';

jest.setTimeout(60_000);

/**
 * Every rule of spec §2.2 and §8 (the gateway's own table of bad bodies, one per rule), through the whole
 * stack: each answered 400 with its code and param, and not one payment created.
 */
describe('bad input through the whole stack', () => {
  let merchant: CreatedMerchant;
  beforeAll(async () => {
    merchant = await createMerchant('E2E Validation');
  });
  const cases = badCreationCases(new Date());

  it.each(cases.map((example) => [example.rule, example] as const))(
    '%s → 400 naming the parameter',
    async (_rule, example) => {
      const response = await api<{ error: { type: string; code: string; param?: string } }>(
        merchant.secret_key,
        'POST',
        '/v1/payments',
        { body: example.body },
      );
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code: example.code });
      expect(response.body.error.param).toBe(example.param);
    },
  );

  it('created nothing for any of them, while a valid body is accepted', async () => {
    expect((await api<{ data: unknown[] }>(merchant.secret_key, 'GET', '/v1/payments')).body.data).toEqual(
      [],
    );
    expect((await api(merchant.secret_key, 'POST', '/v1/payments', { body: VALID_BODY })).status).toBe(200);
  });
});
