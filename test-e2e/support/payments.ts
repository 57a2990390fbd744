import { waitFor } from '@sika/testing';
import { api } from './api';
import { CHECKOUT_URL } from './environment';

/** What the tests read of a payment (the public object has more). */
export interface PaymentView {
  id: string;
  status: string;
  created_at: string;
  expires_at: string;
  /** The hosted page, its secret token included: the only way in (the id alone is a 404). */
  checkout_url: string;
  net_amount: number | null;
  attempts: Array<{
    status: string;
    duplicate: boolean;
    failure_code: string | null;
    refund_status: string | null;
  }>;
}

/** A merchant's payments as its server sees them: create, read, and wait for a state. */
export function paymentsOf(secretKey: string) {
  const read = async (id: string): Promise<PaymentView> =>
    (await api<PaymentView>(secretKey, 'GET', `/v1/payments/${id}`)).body;
  return {
    async create(body: Record<string, unknown>): Promise<PaymentView> {
      const created = await api<PaymentView>(secretKey, 'POST', '/v1/payments', {
        body: { return_url: 'https://shop.example/thanks', ...body },
      });
      if (created.status !== 200) throw new Error(`payment creation answered ${created.status}`);
      return created.body;
    },
    read,
    until(id: string, accept: (payment: PaymentView) => boolean, timeoutMs = 30_000): Promise<PaymentView> {
      return waitFor(
        async () => {
          const payment = await read(id);
          return accept(payment) ? payment : undefined;
        },
        { timeoutMs, description: `payment ${id}` },
      );
    },
    /**
     * Until the payment succeeded and the ledger applied its credit (from the same committed event, normally
     * within milliseconds): what the merchant then sees on its balance.
     */
    async untilCredited(id: string): Promise<PaymentView> {
      const payment = await this.until(id, (each) => each.status === 'succeeded');
      await waitFor(
        async () => {
          const { body } = await api<{ data: Array<{ source_id: string }> }>(
            secretKey,
            'GET',
            `/v1/balance_transactions?type=payment&created_from=${encodeURIComponent(payment.created_at)}`,
          );
          return body.data.some((movement) => movement.source_id === id);
        },
        { timeoutMs: 10_000, description: `the credit of ${id}` },
      );
      return payment;
    },
  };
}

/** The customer enters an alias on the payment's hosted page (its checkout_url), as its form posts it. */
export function submitOnHostedPage(
  payment: Pick<PaymentView, 'checkout_url'>,
  alias: string,
): Promise<Response> {
  return fetch(`${payment.checkout_url}/attempts`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: CHECKOUT_URL },
    body: new URLSearchParams({ customer_alias: alias }).toString(),
  });
}
