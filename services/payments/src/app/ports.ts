import type { FeeRule } from '@sika/fees';

/** What the use cases need from the other services; implemented over gRPC in infra/peers.ts. */

export interface MerchantDirectory {
  /** The merchant's current fee rule (merchants.GetMerchant). */
  feeRuleOf(merchantId: string): Promise<FeeRule>;
}

export interface PaymentRequest {
  livemode: boolean;
  txId: string;
  /** Clear, normalised: only psp-connector ever receives it. */
  payerAlias: string;
  amount: bigint;
  /** Shown to the payer by their bank: the payment's description. */
  reason: string | null;
  reference: string | null;
}

export type PaymentRequestReply = { outcome: 'sent' } | { outcome: 'rejected'; reasonCode: string | null };

export interface PaymentRequestSender {
  /** psp-connector SendPaymentRequest: idempotent on tx_id, so sending again is always safe. */
  send(request: PaymentRequest): Promise<PaymentRequestReply>;
}

export interface PaymentCredit {
  merchantId: string;
  livemode: boolean;
  paymentId: string;
  amount: bigint;
  feeAmount: bigint;
}

export interface Ledger {
  /** ledger.PostPaymentCredit: idempotent per payment id, so a retry never credits twice. */
  postPaymentCredit(credit: PaymentCredit): Promise<void>;
}
