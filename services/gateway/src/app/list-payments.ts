import { paymentsV1 } from '@sika/contracts';
import { paymentStatus, renderList, renderPayment, type PublicPayment } from '@sika/public-api';

import type { ListPaymentsQuery } from '../domain/list-queries';
import { pageAndWindow } from './list-request';
import type { PaymentsClient, Scope } from './ports';

/** Spec §4.2: most recent first; filters are exact (status, reference) or half-open (created_from/to). */
export function listPayments(payments: PaymentsClient) {
  return async (scope: Scope, query: ListPaymentsQuery) => {
    const response = await payments.listPayments({
      scope,
      ...pageAndWindow(query),
      status:
        query.status === undefined
          ? paymentsV1.PaymentStatus.PAYMENT_STATUS_UNSPECIFIED
          : (paymentStatus.fromPublic(query.status) ?? paymentsV1.PaymentStatus.PAYMENT_STATUS_UNSPECIFIED),
      reference: query.reference,
    });
    return renderList<PublicPayment>(response.payments.map(renderPayment), response.hasMore);
  };
}
