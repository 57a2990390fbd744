import { paymentsV1, payoutsV1 } from '@sika/contracts';
import { createGrpcClient, type GrpcClient, type GrpcTls } from '@sika/platform';
import type { PaymentDecisions, PayoutDecisions } from '../app/ports';

/** Each question carries at most this many ids (the peers' own limit). */
const PAGE = 1_000;
const DEADLINE_MS = 5_000;

function pagesOf(ids: readonly string[]): string[][] {
  const pages: string[][] = [];
  for (let start = 0; start < ids.length; start += PAGE) pages.push(ids.slice(start, start + PAGE));
  return pages;
}

/** payments.FindSucceededPayments, for the books watch. */
export class GrpcPaymentDecisions implements PaymentDecisions {
  constructor(private readonly client: GrpcClient<paymentsV1.PaymentsServiceClient>) {}

  static connect(address: string, tls: GrpcTls): GrpcPaymentDecisions {
    return new GrpcPaymentDecisions(
      createGrpcClient(paymentsV1.PaymentsServiceClient, address, { deadlineMs: DEADLINE_MS, tls }),
    );
  }

  async succeeded(paymentIds: readonly string[]): Promise<Set<string>> {
    const succeeded = new Set<string>();
    for (const page of pagesOf(paymentIds)) {
      const answer = await this.client.findSucceededPayments({ paymentIds: page });
      for (const id of answer.paymentIds) succeeded.add(id);
    }
    return succeeded;
  }

  close(): void {
    this.client.close();
  }
}

/** payouts.FindPayoutStatuses, for the books watch. */
export class GrpcPayoutDecisions implements PayoutDecisions {
  constructor(private readonly client: GrpcClient<payoutsV1.PayoutsServiceClient>) {}

  static connect(address: string, tls: GrpcTls): GrpcPayoutDecisions {
    return new GrpcPayoutDecisions(
      createGrpcClient(payoutsV1.PayoutsServiceClient, address, { deadlineMs: DEADLINE_MS, tls }),
    );
  }

  async statuses(payoutIds: readonly string[]): Promise<Map<string, string>> {
    const statuses = new Map<string, string>();
    for (const page of pagesOf(payoutIds)) {
      const answer = await this.client.findPayoutStatuses({ payoutIds: page });
      for (const { payoutId, status } of answer.payouts) statuses.set(payoutId, status);
    }
    return statuses;
  }

  close(): void {
    this.client.close();
  }
}
