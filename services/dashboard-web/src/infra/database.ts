import { Database, type Metrics } from '@sika/platform';

import type { DB } from '../generated/database';

export type DashboardDatabase = Database<DB>;

export function createDatabase(url: string, schema: string, metrics?: Metrics): DashboardDatabase {
  return new Database<DB>({ url, schema, ...(metrics && { metrics }) });
}
