import { newId } from '@sika/platform';
import { startDispatcher, type DispatcherHarness } from './support/dispatcher';

describe('webhook endpoints over gRPC', () => {
  let dispatcher: DispatcherHarness;

  beforeAll(async () => {
    dispatcher = await startDispatcher({ timeoutMs: 1_000 });
  });

  afterAll(async () => {
    await dispatcher.close();
  });

  it('creates the endpoint with a whsec_ secret, and keeps the secret when only the URL changes', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    const { endpoint: created } = await dispatcher.client.setEndpoint({ scope });
    expect(created).toEqual({ scope, secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32,}$/) });
    expect(created?.url).toBeUndefined();

    const { endpoint: withUrl } = await dispatcher.client.setEndpoint({
      scope,
      url: 'https://shop.example/hooks',
    });
    expect(withUrl).toEqual({ scope, url: 'https://shop.example/hooks', secret: created?.secret });
    const { endpoint: moved } = await dispatcher.client.setEndpoint({
      scope,
      url: 'https://shop.example/v2',
    });
    expect(moved?.secret).toBe(created?.secret);
    expect((await dispatcher.client.getEndpoint({ scope })).endpoint).toEqual(moved);
  });

  it('gives each mode its own endpoint and secret', async () => {
    const merchantId = newId('mer');
    const test = await dispatcher.client.setEndpoint({
      scope: { merchantId, livemode: false },
      url: 'https://a.example/',
    });
    const live = await dispatcher.client.setEndpoint({
      scope: { merchantId, livemode: true },
      url: 'https://b.example/',
    });
    expect(live.endpoint?.secret).not.toBe(test.endpoint?.secret);
    expect(
      (await dispatcher.client.getEndpoint({ scope: { merchantId, livemode: false } })).endpoint?.url,
    ).toBe('https://a.example/');
  });

  it('ends concurrent first registrations as one endpoint with one secret', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        dispatcher.client.setEndpoint({ scope, url: `https://shop.example/${index}` }),
      ),
    );
    expect(new Set(answers.map((answer) => answer.endpoint?.secret)).size).toBe(1);
    const rows = await dispatcher.db.query('SELECT id FROM endpoints WHERE merchant_id = $1', [
      scope.merchantId,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('stores the secret encrypted', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    const { endpoint } = await dispatcher.client.setEndpoint({ scope });
    const [row] = await dispatcher.db.query<{ secret_ciphertext: string }>(
      'SELECT secret_ciphertext FROM endpoints WHERE merchant_id = $1',
      [scope.merchantId],
    );
    expect(row?.secret_ciphertext).toMatch(/^v1\./);
    expect(row?.secret_ciphertext).not.toContain(endpoint?.secret.slice('whsec_'.length));
  });

  it('answers resource_missing for a merchant and mode without endpoint', async () => {
    const merchantId = newId('mer');
    await dispatcher.client.setEndpoint({ scope: { merchantId, livemode: false } });
    await expect(
      dispatcher.client.getEndpoint({ scope: { merchantId, livemode: true } }),
    ).rejects.toMatchObject({
      code: 'resource_missing',
    });
  });

  it.each([
    ['a relative URL', { url: '/hooks' }, 'url'],
    ['an ftp URL', { url: 'ftp://shop.example/' }, 'url'],
    ['a malformed merchant id', { scope: { merchantId: 'shop', livemode: false } }, 'scope.merchant_id'],
  ])('refuses %s naming %s, creating nothing', async (_case, overrides, param) => {
    const scope = { merchantId: newId('mer'), livemode: false };
    await expect(dispatcher.client.setEndpoint({ scope, ...overrides })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param,
    });
    expect(
      await dispatcher.db.query('SELECT 1 FROM endpoints WHERE merchant_id = $1', [scope.merchantId]),
    ).toEqual([]);
  });
});
