import type { paymentsV1 } from '@sika/contracts';
import { AppError, runWithContext } from '@sika/platform';
import { testIdentity } from '@sika/testing';

import type { NormalizedPaymentCreation } from '../src/domain/payment-creation';
import { connectPeers } from '../src/infra/grpc-peers';
import { SCOPES } from './support/gateway';
import { startPeers, type Peers } from './support/peers';

let peers: Peers;
let connected: ReturnType<typeof connectPeers>;

beforeAll(async () => {
  peers = await startPeers();
  connected = connectPeers(peers.addresses, 5_000, (await testIdentity('gateway')).tls);
});
afterAll(async () => {
  connected.close();
  await peers.close();
});

const creation: NormalizedPaymentCreation = {
  amount: 10_000,
  currency: 'XOF',
  mode: 'immediate',
  return_url: 'https://shop.example/return',
  metadata: {},
};

function creationCalls(): paymentsV1.CreatePaymentsRequest[] {
  return peers.payments.calls
    .filter((call) => call.method === 'createPayments')
    .map((call) => call.request as paymentsV1.CreatePaymentsRequest);
}

describe('GrpcPayments.create', () => {
  it('sends the creations of one turn in one CreatePayments call, each with its request id and its own outcome', async () => {
    const idempotency = { key: 'order-7', fingerprint: 'a'.repeat(64) };
    await connected.payments.create(SCOPES.aTest, creation, idempotency);
    const before = creationCalls().length;

    const outcomes = await Promise.allSettled(
      (['req_first', 'req_second', 'req_third'] as const).map((requestId, index) =>
        runWithContext({ requestId }, () =>
          connected.payments.create(
            SCOPES.aTest,
            { ...creation, amount: 1_000 + index },
            // The second reuses the key with another body: it alone fails.
            index === 1 ? { ...idempotency, fingerprint: 'b'.repeat(64) } : undefined,
          ),
        ),
      ),
    );

    const calls = creationCalls().slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.creations.map(({ requestId, request }) => [requestId, request?.amount])).toEqual([
      ['req_first', 1_000n],
      ['req_second', 1_001n],
      ['req_third', 1_002n],
    ]);
    const [first, second, third] = outcomes;
    expect(first).toMatchObject({ status: 'fulfilled', value: { object: 'payment', amount: 1_000 } });
    expect(second).toMatchObject({ status: 'rejected', reason: { code: 'idempotency_key_reused' } });
    expect((second as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    expect(third).toMatchObject({ status: 'fulfilled', value: { object: 'payment', amount: 1_002 } });
  });

  it('sends a creation of a later turn in a call of its own', async () => {
    const before = creationCalls().length;
    await connected.payments.create(SCOPES.aTest, creation, undefined);
    await connected.payments.create(SCOPES.aTest, creation, undefined);
    expect(
      creationCalls()
        .slice(before)
        .map((call) => call.creations.length),
    ).toEqual([1, 1]);
  });
});
