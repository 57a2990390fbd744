import { merchantsV1, pspV1 } from '@sika/contracts';
import { createGrpcClient } from '@sika/platform';
import type { GrpcClient, GrpcTls, RecentAnswers } from '@sika/platform';
import type {
  MerchantDirectory,
  MerchantProfile,
  PaymentRequest,
  PaymentRequestReply,
  PaymentRequestSender,
} from '../app/ports';
import { assertValidFeeRule } from '@sika/fees';

/** Deadlines per peer: psp-connector waits on the scheme's HTTP API, merchants answers from its database. */
export const PEER_DEADLINES_MS = { merchants: 3_000, pspConnector: 10_000 } as const;

/**
 * Merchants' profiles, each reused for a short while (`recentProfiles`, PROFILE_CACHE_TTL): a merchant
 * creating payments by the hundred per second costs merchants one question a second, and a changed fee rule
 * or name applies to the payments created from at most that long after.
 */
export class GrpcMerchantDirectory implements MerchantDirectory {
  constructor(
    private readonly client: GrpcClient<merchantsV1.MerchantsServiceClient>,
    private readonly recentProfiles: RecentAnswers<MerchantProfile>,
  ) {}

  static connect(
    address: string,
    tls: GrpcTls,
    recentProfiles: RecentAnswers<MerchantProfile>,
  ): GrpcMerchantDirectory {
    return new GrpcMerchantDirectory(
      createGrpcClient(merchantsV1.MerchantsServiceClient, address, {
        deadlineMs: PEER_DEADLINES_MS.merchants,
        tls,
      }),
      recentProfiles,
    );
  }

  profileOf(merchantId: string): Promise<MerchantProfile> {
    return this.recentProfiles.get(merchantId, () => this.askProfileOf(merchantId));
  }

  private async askProfileOf(merchantId: string): Promise<MerchantProfile> {
    const { merchant } = await this.client.getMerchant({ merchantId });
    if (merchant?.feeRule === undefined)
      throw new Error(`merchants answered without a fee rule for ${merchantId}`);
    const feeRule = { rateBps: merchant.feeRule.rateBps, fixedAmount: merchant.feeRule.fixedAmount };
    assertValidFeeRule(feeRule);
    return { feeRule, name: merchant.name };
  }

  close(): void {
    this.client.close();
  }
}

export class GrpcPaymentRequestSender implements PaymentRequestSender {
  constructor(private readonly client: GrpcClient<pspV1.PspConnectorServiceClient>) {}

  static connect(address: string, tls: GrpcTls): GrpcPaymentRequestSender {
    return new GrpcPaymentRequestSender(
      createGrpcClient(pspV1.PspConnectorServiceClient, address, {
        deadlineMs: PEER_DEADLINES_MS.pspConnector,
        tls,
      }),
    );
  }

  async send(request: PaymentRequest): Promise<PaymentRequestReply> {
    const reply = await this.client.sendPaymentRequest({
      livemode: request.livemode,
      txId: request.txId,
      payerAlias: request.payerAlias,
      amount: request.amount,
      reason: request.reason ?? undefined,
      reference: request.reference ?? undefined,
      expiresAt: request.expiresAt,
      onDelivery: request.onDelivery,
    });
    const reasonCode = reply.reasonCode ?? null;
    switch (reply.outcome) {
      case pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_SENT:
        return { outcome: 'sent' };
      case pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_REJECTED:
        return { outcome: 'rejected', reasonCode };
      case pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_ALIAS_UNKNOWN:
        return { outcome: 'alias_unknown', reasonCode };
      case pspV1.PaymentRequestOutcome.PAYMENT_REQUEST_OUTCOME_FAILED:
        return { outcome: 'failed', reasonCode };
      default:
        throw new Error(`psp-connector answered an unknown outcome ${reply.outcome} for ${request.txId}`);
    }
  }

  close(): void {
    this.client.close();
  }
}
