import type { PublicPayout } from '@sika/public-api';

import type { ListPayoutsQuery } from '../domain/list-queries';
import type { Payouts, PublicList, Scope } from './ports';

/** Spec §4.8: most recent first; filters are exact (status) or half-open (created_from/to). */
export class ListPayouts {
  constructor(private readonly deps: { payouts: Payouts }) {}

  execute(scope: Scope, query: ListPayoutsQuery): Promise<PublicList<PublicPayout>> {
    return this.deps.payouts.list(scope, query);
  }
}
