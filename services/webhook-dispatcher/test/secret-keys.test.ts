import { randomBytes } from 'node:crypto';
import { newId } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { SecretBox } from '@sika/platform';
import { startDispatcher, type DispatcherHarness } from './support/dispatcher';
import { LEGACY_SECRET } from './support/legacy-secret';
import { startReceiver, type Receiver } from './support/receiver';
import { verifySignature } from './support/verify-signature';

/** A dispatcher whose WEBHOOK_SECRET_KEY is new, the key it replaced in WEBHOOK_SECRET_PREVIOUS_KEYS. */
describe('webhook secrets sealed with a previous key', () => {
  const currentKey = randomBytes(32);
  let dispatcher: DispatcherHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    dispatcher = await startDispatcher({
      timeoutMs: 1_000,
      secretKeys: { current: currentKey, previous: [randomBytes(32), LEGACY_SECRET.key] },
    });
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver.close();
    await dispatcher.close();
  });

  it('signs with a secret sealed before key ids (v1) by a previous key, and reads it back', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    await dispatcher.db.query(
      `INSERT INTO endpoints (id, merchant_id, livemode, url, url_since, secret_ciphertext, created_at, updated_at)
       VALUES ($1, $2, false, $3, now(), $4, now(), now())`,
      [LEGACY_SECRET.endpointId, scope.merchantId, receiver.url, LEGACY_SECRET.sealed],
    );

    expect((await dispatcher.client.getEndpoint({ scope })).endpoint?.secret).toBe(LEGACY_SECRET.secret);
    await dispatcher.client.sendTestEvent({ scope });
    await waitFor(() => receiver.requests.length === 1, { description: 'the test event' });
    const [request] = receiver.requests;
    const now = dispatcher.clock.now();
    expect(
      verifySignature(
        request?.headers['service-signature'] as string,
        request?.body ?? '',
        LEGACY_SECRET.secret,
        now,
      ),
    ).toBe(Math.floor(now.getTime() / 1000));
  });

  it('seals new secrets with the current key only', async () => {
    const scope = { merchantId: newId('mer'), livemode: false };
    const { endpoint } = await dispatcher.client.setEndpoint({ scope });
    const [row] = await dispatcher.db.query<{ id: string; secret_ciphertext: string }>(
      'SELECT id, secret_ciphertext FROM endpoints WHERE merchant_id = $1',
      [scope.merchantId],
    );
    expect(new SecretBox(currentKey).open(row?.secret_ciphertext ?? '', row?.id ?? '')).toBe(
      endpoint?.secret,
    );
  });
});
