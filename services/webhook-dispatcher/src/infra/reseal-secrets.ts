import type { Selectable } from 'kysely';
import type { SecretBox } from '@sika/platform';
import type { DB } from '../generated/database';
import type { WebhooksDatabase } from './database';

/** Endpoints read per round trip. */
const BATCH = 100;

const SEALED_COLUMNS = [
  'id',
  'secret_ciphertext',
  'previous_secret_ciphertext',
  'previous_secret_expires_at',
] as const;
type SealedRow = Pick<Selectable<DB['endpoints']>, (typeof SEALED_COLUMNS)[number]>;

export interface ResealReport {
  /** Endpoints looked at. */
  endpoints: number;
  /** Endpoints whose secrets this run rewrote with the current key (or rid of an ended overlap). */
  resealed: number;
  /** Ids of endpoints no configured key opens: left as they were. */
  unreadable: string[];
}

/**
 * Rewrites every stored webhook secret (the current one and a previous one still overlapping) sealed with
 * a previous key or in the v1 format, with the current key, so that previous keys can then be dropped from
 * the configuration. A previous secret whose overlap has ended is removed rather than resealed: nothing reads
 * it any more. Idempotent (a secret already sealed with the current key is left alone) and safe while the
 * service runs: each row is written only if it still holds what was read, and read again otherwise (a roll
 * or a first registration happened meanwhile).
 */
export async function resealEndpointSecrets(
  db: WebhooksDatabase,
  secrets: SecretBox,
  now: Date,
): Promise<ResealReport> {
  const report: ResealReport = { endpoints: 0, resealed: 0, unreadable: [] };
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('endpoints')
      .select(SEALED_COLUMNS)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      report.endpoints += 1;
      const outcome = await resealRow(db, secrets, row, now);
      if (outcome === 'resealed') report.resealed += 1;
      if (outcome === 'unreadable') report.unreadable.push(row.id);
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < BATCH) return report;
    after = last.id;
  }
}

async function resealRow(
  db: WebhooksDatabase,
  secrets: SecretBox,
  initial: SealedRow,
  now: Date,
): Promise<'resealed' | 'current' | 'unreadable'> {
  let row: SealedRow | undefined = initial;
  while (row !== undefined) {
    const overlapping = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now;
    const previous = overlapping ? row.previous_secret_ciphertext : null;
    const stale =
      !secrets.isCurrent(row.secret_ciphertext) ||
      (previous !== null && !secrets.isCurrent(previous)) ||
      previous !== row.previous_secret_ciphertext;
    if (!stale) return 'current';
    let sealed: { current: string; previous: string | null };
    try {
      sealed = {
        current: reseal(secrets, row.secret_ciphertext, row.id),
        previous: previous === null ? null : reseal(secrets, previous, row.id),
      };
    } catch {
      return 'unreadable';
    }
    const { numUpdatedRows } = await db
      .updateTable('endpoints')
      .set({
        secret_ciphertext: sealed.current,
        previous_secret_ciphertext: sealed.previous,
        previous_secret_expires_at: sealed.previous === null ? null : row.previous_secret_expires_at,
      })
      .where('id', '=', row.id)
      .where('secret_ciphertext', '=', row.secret_ciphertext)
      .where('previous_secret_ciphertext', 'is not distinct from', row.previous_secret_ciphertext)
      .executeTakeFirstOrThrow();
    if (numUpdatedRows === 1n) return 'resealed';
    row = await db.selectFrom('endpoints').select(SEALED_COLUMNS).where('id', '=', row.id).executeTakeFirst();
  }
  // The row is gone: nothing is left to reseal.
  return 'current';
}

/** The value sealed with the current key: as it is when it already is. */
function reseal(secrets: SecretBox, sealed: string, endpointId: string): string {
  return secrets.isCurrent(sealed) ? sealed : secrets.seal(secrets.open(sealed, endpointId), endpointId);
}
