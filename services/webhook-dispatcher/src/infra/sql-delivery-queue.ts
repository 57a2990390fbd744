import { sql, type Kysely, type Selectable } from 'kysely';
import type { AttemptRecord, ClaimedDelivery, DeliveryQueue, EndpointSlots } from '../app/ports';
import type { DeliveryOutcome } from '../domain/retry-schedule';
import type { DB } from '../generated/database';
import type { OpenedSecrets } from './opened-secrets';

const UNREADABLE_SECRET =
  'the endpoint secret cannot be decrypted with WEBHOOK_SECRET_KEY nor WEBHOOK_SECRET_PREVIOUS_KEYS';

/** A delivery claimed, with its event and endpoint: what a claim, or storing an event, returns. */
export interface ClaimedRow {
  delivery_id: string;
  attempt_count: number;
  event_id: string;
  payload: string;
  endpoint_id: string;
  url: string | null;
  livemode: boolean;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
}

/** An attempt made and the outcome it leads to, as recorded together. */
export interface RecordedAttempt {
  attempt: AttemptRecord;
  outcome: DeliveryOutcome;
}

/** An attempt and the outcome it leads to, as one row of the statement that records them. */
type AttemptRecordRow = Omit<Selectable<DB['delivery_attempts']>, 'id'> &
  Pick<Selectable<DB['deliveries']>, 'status' | 'next_attempt_at' | 'delivered_at'> & { lease_until: Date };

const ATTEMPT_COLUMNS = [
  'delivery_id',
  'number',
  'attempted_at',
  'url',
  'status_code',
  'error',
  'duration_ms',
] as const;

/**
 * Due rows a claim looks at per slot it fills: enough for one endpoint's backlog, ordered first, not to hide
 * the others' rows behind it once that endpoint has its share.
 */
const CANDIDATES_PER_SLOT = 4;

export class SqlDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly secrets: OpenedSecrets,
  ) {}

  async claimDue(
    now: Date,
    limit: number,
    leaseUntil: Date,
    slots: EndpointSlots,
  ): Promise<ClaimedDelivery[]> {
    // SKIP LOCKED: workers of every replica scan at once without waiting for, or taking, each other's rows.
    // Pushing next_attempt_at to the end of the lease is what keeps the claim after this statement commits.
    // Endpoints already at their share of attempts in flight are skipped, and each other endpoint gets at most
    // the rest of its share: a backlog for one endpoint (a flood of resends to a host that never answers)
    // leaves the other slots to the other endpoints. The arrays are unnested from sub-selects so that the plan
    // stays generic.
    const busy = [...slots.inFlight.entries()];
    const { rows } = await sql<ClaimedRow>`
      WITH busy AS (
        SELECT * FROM unnest((SELECT ${busy.map(([id]) => id)}::text[]),
                             (SELECT ${busy.map(([, count]) => count)}::integer[])) AS b (endpoint_id, in_flight)),
      candidate AS (
        SELECT id, endpoint_id, next_attempt_at FROM deliveries
         WHERE status = 'pending' AND next_attempt_at <= ${now}
           AND endpoint_id <> ALL (SELECT endpoint_id FROM busy WHERE in_flight >= ${slots.perEndpoint})
         ORDER BY next_attempt_at
         LIMIT ${limit * CANDIDATES_PER_SLOT}),
      shared AS (
        SELECT c.id FROM (
          SELECT c.id, c.next_attempt_at, COALESCE(b.in_flight, 0)
                   + row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at) AS slot
            FROM candidate c LEFT JOIN busy b ON b.endpoint_id = c.endpoint_id) c
         WHERE c.slot <= ${slots.perEndpoint}),
      due AS (
        SELECT id FROM deliveries
         WHERE id IN (SELECT id FROM shared) AND status = 'pending' AND next_attempt_at <= ${now}
         ORDER BY next_attempt_at
         LIMIT ${limit}
           FOR UPDATE SKIP LOCKED
      )
      UPDATE deliveries AS d
         SET attempt_count = d.attempt_count + 1, next_attempt_at = ${leaseUntil}
        FROM due, events AS e, endpoints AS p
       WHERE d.id = due.id AND e.id = d.event_id AND p.id = d.endpoint_id
      RETURNING d.id AS delivery_id, d.attempt_count, e.id AS event_id, e.payload,
                p.id AS endpoint_id, p.url, p.livemode, p.secret_ciphertext,
                CASE WHEN p.previous_secret_expires_at > ${now} THEN p.previous_secret_ciphertext END
                  AS previous_secret_ciphertext,
                p.previous_secret_expires_at`.execute(this.db);
    return this.deliveriesOf(rows, now, leaseUntil);
  }

  /**
   * Claimed rows as deliveries to attempt. One whose secret cannot be opened is not attempted: its attempt
   * is recorded as failed through this queue's client (the claiming transaction's, when there is one).
   */
  async deliveriesOf(rows: ClaimedRow[], now: Date, leaseUntil: Date): Promise<ClaimedDelivery[]> {
    const claimed: ClaimedDelivery[] = [];
    for (const row of rows) {
      const secrets = this.openSecrets(row);
      if (secrets === undefined) {
        await this.recordAttempt(
          {
            deliveryId: row.delivery_id,
            number: row.attempt_count,
            leaseUntil,
            attemptedAt: now,
            url: row.url ?? '',
            error: UNREADABLE_SECRET,
            durationMs: 0,
          },
          { status: 'failed' },
        );
        continue;
      }
      claimed.push({
        deliveryId: row.delivery_id,
        endpointId: row.endpoint_id,
        attemptNumber: row.attempt_count,
        eventId: row.event_id,
        payload: row.payload,
        url: row.url,
        livemode: row.livemode,
        ...secrets,
        leaseUntil,
      });
    }
    return claimed;
  }

  /**
   * A secret sealed under a key no longer configured (or damaged) can never be signed with: its delivery fails
   * on its own, recorded, instead of failing the whole claim and holding back the deliveries beside it. An
   * expired previous secret was left out by the claim, so it is never opened.
   */
  private openSecrets(row: ClaimedRow): Pick<ClaimedDelivery, 'secret' | 'previousSecret'> | undefined {
    try {
      const secret = this.secrets.open(row.endpoint_id, 'current', row.secret_ciphertext);
      const previousSecret =
        row.previous_secret_ciphertext === null || row.previous_secret_expires_at === null
          ? null
          : {
              secret: this.secrets.open(row.endpoint_id, 'previous', row.previous_secret_ciphertext),
              expiresAt: row.previous_secret_expires_at,
            };
      return { secret, previousSecret };
    } catch {
      return undefined;
    }
  }

  async recordAttempt(attempt: AttemptRecord, outcome: DeliveryOutcome): Promise<boolean> {
    const [applied] = await this.recordAttempts([{ attempt, outcome }]);
    return applied === true;
  }

  /**
   * Records attempts and their outcomes in one statement, so each attempt and its outcome commit together
   * without a transaction's round trips; says of each whether its outcome applied. A later claim changes the
   * attempt count; a resend, the due time the lease was written in: either way that outcome is superseded, and
   * only its attempt is logged. The arrays are unnested from sub-selects so that the plan stays generic.
   */
  async recordAttempts(records: readonly RecordedAttempt[]): Promise<boolean[]> {
    const column = <T>(of: (record: RecordedAttempt) => T): T[] => records.map(of);
    const record = sql<AttemptRecordRow>`unnest(
          (SELECT ${column((r) => r.attempt.deliveryId)}::text[]),
          (SELECT ${column((r) => r.attempt.number)}::integer[]),
          (SELECT ${column((r) => r.attempt.attemptedAt)}::timestamptz[]),
          (SELECT ${column((r) => r.attempt.url)}::text[]),
          (SELECT ${column((r) => r.attempt.statusCode ?? null)}::integer[]),
          (SELECT ${column((r) => r.attempt.error ?? null)}::text[]),
          (SELECT ${column((r) => Math.round(r.attempt.durationMs))}::integer[]),
          (SELECT ${column((r) => r.attempt.leaseUntil)}::timestamptz[]),
          (SELECT ${column((r) => r.outcome.status)}::text[]),
          (SELECT ${column((r) => (r.outcome.status === 'pending' ? r.outcome.nextAttemptAt : null))}::timestamptz[]),
          (SELECT ${column((r) => (r.outcome.status === 'delivered' ? r.outcome.deliveredAt : null))}::timestamptz[]))`;
    const applied = await this.db
      .with('record', (db) =>
        db
          .selectFrom(
            record.as<'r'>(
              sql`r (delivery_id, number, attempted_at, url, status_code, error, duration_ms, lease_until, status, next_attempt_at, delivered_at)`,
            ),
          )
          .selectAll(),
      )
      .with('attempt', (db) =>
        db
          .insertInto('delivery_attempts')
          .columns(ATTEMPT_COLUMNS)
          .expression((insert) => insert.selectFrom('record').select(ATTEMPT_COLUMNS)),
      )
      .updateTable('deliveries as d')
      .from('record as r')
      .set((eb) => ({
        status: eb.ref('r.status'),
        next_attempt_at: eb.ref('r.next_attempt_at'),
        delivered_at: eb.fn.coalesce('r.delivered_at', 'd.delivered_at'),
      }))
      .whereRef('d.id', '=', 'r.delivery_id')
      .whereRef('d.attempt_count', '=', 'r.number')
      .where('d.status', '=', sql.lit('pending'))
      .whereRef('d.next_attempt_at', '=', 'r.lease_until')
      .returning(['d.id', 'r.number'])
      .execute();
    const key = (deliveryId: string, number: number) => `${deliveryId}#${number}`;
    const appliedKeys = new Set(applied.map((row) => key(row.id, row.number)));
    return records.map(({ attempt }) => appliedKeys.has(key(attempt.deliveryId, attempt.number)));
  }
}
