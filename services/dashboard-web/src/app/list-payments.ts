import type { Scope } from '@sika/platform/pure';
import type { PublicPayment } from '@sika/public-api';

import type { ListFilters } from '../domain/list-filters';
import type { Page, Peers } from './ports';

export const PAYMENTS_PAGE_SIZE = 20;

/** A page of payments with the API's filters, most recent first, as `GET /v1/payments` lists them. */
export class ListPayments {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payments'> }) {}

  execute(scope: Scope, filters: ListFilters): Promise<Page<PublicPayment>> {
    return this.dependencies.peers.payments.list(scope, filters, PAYMENTS_PAGE_SIZE);
  }
}
