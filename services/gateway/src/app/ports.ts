import type { commonV1, ledgerV1, merchantsV1, paymentsV1 } from '@sika/contracts';
import type { GrpcClient } from '@sika/platform';

import type { RateLimitDecision } from '../domain/rate-limit-window';

export type MerchantsClient = GrpcClient<merchantsV1.MerchantsServiceClient>;
export type PaymentsClient = GrpcClient<paymentsV1.PaymentsServiceClient>;
export type LedgerClient = GrpcClient<ledgerV1.LedgerServiceClient>;

/** Who is calling: the merchant and the mode of the key. Every downstream call is scoped by it. */
export type Scope = commonV1.Scope;

export interface RateLimiter {
  /** Counts one request of the key; undefined when the limiter cannot tell (the request is let through). */
  hit(keyDigest: string, livemode: boolean): Promise<RateLimitDecision | undefined>;
}
