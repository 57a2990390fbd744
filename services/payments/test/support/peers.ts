import { merchantsV1, pspV1 } from '@sika/contracts';
import { AppError, startGrpcServer, unaryHandler } from '@sika/platform';
import { allowEveryMethod, testIdentity } from '@sika/testing';
import type { GrpcServiceRegistration, Logger, RunningGrpcServer } from '@sika/platform';

/**
 * Minimal, honest stand-ins for the services payments calls, served over real gRPC from the generated
 * service definitions: they keep the contract's promises (psp-connector idempotent on tx_id) and record what
 * they were asked.
 */

export const UNKNOWN_TEST_ALIAS = '+225 0000000005';

export class MerchantsPeer {
  readonly feeRules = new Map<string, merchantsV1.FeeRule>();
  /** Merchant ids asked for, in order. */
  readonly asked: string[] = [];

  readonly implementation: Pick<merchantsV1.MerchantsServiceServer, 'getMerchant'> = {
    getMerchant: unaryHandler(async (request: merchantsV1.GetMerchantRequest) => {
      this.asked.push(request.merchantId);
      const feeRule = this.feeRules.get(request.merchantId);
      if (feeRule === undefined)
        throw new AppError('resource_missing', 'No such merchant.', { param: 'merchant_id' });
      return {
        merchant: {
          id: request.merchantId,
          name: 'Test shop',
          feeRule,
          liveEnabled: true,
          createdAt: new Date(),
        },
      };
    }),
  };
}

export class PspConnectorPeer {
  readonly calls: pspV1.SendPaymentRequestRequest[] = [];
  /** tx_ids answered so far (after any hold). */
  readonly answered: string[] = [];
  private readonly outcomes = new Map<string, pspV1.SendPaymentRequestResponse>();
  /** While true, every call fails with service_unavailable, as an unreachable psp-connector would. */
  unavailable = false;
  /** When set, replies wait for it: lets a test deliver a callback before the synchronous answer. */
  hold: Promise<void> | undefined;

  readonly implementation: Pick<pspV1.PspConnectorServiceServer, 'sendPaymentRequest'> = {
    sendPaymentRequest: unaryHandler(async (request: pspV1.SendPaymentRequestRequest) => {
      this.calls.push(request);
      if (this.unavailable) throw new AppError('service_unavailable', 'psp-connector is down.');
      await this.hold;
      this.answered.push(request.txId);
      const known = this.outcomes.get(request.txId);
      if (known !== undefined) return known;
      const outcome: pspV1.SendPaymentRequestResponse =
        request.payerAlias === UNKNOWN_TEST_ALIAS
          ? { outcome: pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_ALIAS_UNKNOWN, reasonCode: 'BE23' }
          : { outcome: pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT };
      this.outcomes.set(request.txId, outcome);
      return outcome;
    }),
  };

  callsFor(txId: string): number {
    return this.calls.filter((call) => call.txId === txId).length;
  }
}

export interface Peers {
  merchants: MerchantsPeer;
  psp: PspConnectorPeer;
  addresses: { merchants: string; psp: string };
  stop(): Promise<void>;
}

export async function startPeers(logger: Logger): Promise<Peers> {
  const merchants = new MerchantsPeer();
  const psp = new PspConnectorPeer();
  // Each stand-in serves over mutual TLS as the service it stands for, to payments alone.
  const serve = async (
    identity: string,
    { definition, implementation }: Omit<GrpcServiceRegistration, 'callers'>,
  ) =>
    startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [{ definition, implementation, callers: allowEveryMethod(definition, ['payments']) }],
      tls: (await testIdentity(identity)).tls,
    });
  const servers: RunningGrpcServer[] = await Promise.all([
    serve('merchants', {
      definition: merchantsV1.MerchantsServiceService,
      implementation: merchants.implementation,
    }),
    serve('psp-connector', {
      definition: pspV1.PspConnectorServiceService,
      implementation: psp.implementation,
    }),
  ]);
  const address = (server: RunningGrpcServer | undefined) => `127.0.0.1:${server?.port ?? 0}`;
  return {
    merchants,
    psp,
    addresses: { merchants: address(servers[0]), psp: address(servers[1]) },
    stop: async () => void (await Promise.all(servers.map((server) => server.shutdown(1_000)))),
  };
}
