import { payoutsV1 } from '@sika/contracts';
import { startGrpcServer, unaryHandler } from '@sika/platform';
import { allowEveryMethod, testIdentity } from '@sika/testing';
import type { Logger } from '@sika/platform';

/**
 * Stands in for payouts where the CLI only reads payout accounts (merchant:approve): a real gRPC server
 * answering GetPayoutAccount from live accounts the test sets, in memory. Registering and confirming an
 * account through the real payouts service and the scheme's name lookup is covered end to end
 * (test-e2e/payouts.test.ts, test-e2e/isolation.test.ts).
 */
export interface PayoutsFixture {
  address: string;
  setLiveAccount(merchantId: string, status: payoutsV1.PayoutAccountStatus): void;
  stop(): Promise<void>;
}

export async function startPayoutsFixture(logger: Logger): Promise<PayoutsFixture> {
  const liveAccounts = new Map<string, payoutsV1.PayoutAccountStatus>();

  const implementation: Pick<payoutsV1.PayoutsServiceServer, 'getPayoutAccount'> = {
    getPayoutAccount: unaryHandler(async ({ scope }: payoutsV1.GetPayoutAccountRequest) => {
      const status = scope?.livemode ? liveAccounts.get(scope.merchantId) : undefined;
      return {
        account:
          status === undefined
            ? undefined
            : {
                merchantId: scope!.merchantId,
                livemode: true,
                status,
                destination: undefined,
                updatedAt: new Date(),
                defaultTestAccount: false,
              },
        schedule: payoutsV1.PayoutSchedule.PAYOUT_SCHEDULE_DAILY,
      };
    }),
  };

  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        definition: payoutsV1.PayoutsServiceService,
        implementation,
        callers: allowEveryMethod(payoutsV1.PayoutsServiceService, ['cli']),
      },
    ],
    tls: (await testIdentity('payouts')).tls,
  });
  return {
    address: `127.0.0.1:${server.port}`,
    setLiveAccount: (merchantId, status) => liveAccounts.set(merchantId, status),
    stop: () => server.shutdown(1_000),
  };
}
