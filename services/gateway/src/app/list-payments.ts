import type { PublicPayment } from '@sika/public-api';

import type { ListPaymentsQuery } from '../domain/list-queries';
import type { Payments, PublicList, Scope } from './ports';

/** Spec §4.2: most recent first; filters are exact (status, reference) or half-open (created_from/to). */
export class ListPayments {
  constructor(private readonly deps: { payments: Payments }) {}

  execute(scope: Scope, query: ListPaymentsQuery): Promise<PublicList<PublicPayment>> {
    return this.deps.payments.list(scope, query);
  }
}
