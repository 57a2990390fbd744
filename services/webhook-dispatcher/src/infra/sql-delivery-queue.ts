import { sql, type Kysely, type Selectable } from 'kysely';
import type { AttemptRecord, ClaimedDelivery, DeliveryQueue, EndpointSlots } from '../app/ports';
import type { DeliveryOutcome } from '../domain/retry-schedule';
import type { DB } from '../generated/database';
import { PreparedQuery } from '@sika/platform';
import type { OpenedSecrets } from './opened-secrets';

const UNREADABLE_SECRET =
  'the endpoint secret cannot be decrypted with WEBHOOK_SECRET_KEY nor WEBHOOK_SECRET_PREVIOUS_KEYS';

type Delivery = Selectable<DB['deliveries']>;
type Endpoint = Selectable<DB['endpoints']>;

/** A delivery claimed, with its event and endpoint: what a claim, or storing an event, returns. */
export type ClaimedRow = { delivery_id: Delivery['id']; event_id: Delivery['event_id'] } & Pick<
  Delivery,
  'attempt_count'
> &
  Pick<Selectable<DB['events']>, 'payload'> & { endpoint_id: Endpoint['id'] } & Pick<
    Endpoint,
    'url' | 'livemode' | 'secret_ciphertext' | 'previous_secret_ciphertext' | 'previous_secret_expires_at'
  >;

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

/** The arrays of recordAttempts' statement, one per column of its records. */
interface AttemptValues {
  deliveryId: string[];
  number: number[];
  attemptedAt: Date[];
  url: string[];
  statusCode: (number | null)[];
  error: (string | null)[];
  durationMs: number[];
  leaseUntil: Date[];
  status: string[];
  nextAttemptAt: (Date | null)[];
  deliveredAt: (Date | null)[];
}

interface ClaimParams {
  busyIds: string[];
  busyCounts: number[];
  now: Date;
  perEndpoint: number;
  candidates: number;
  limit: number;
  leaseUntil: Date;
}

export class SqlDeliveryQueue implements DeliveryQueue {
  /** The claim, compiled once (PreparedQuery): it is the largest statement of each delivery round. */
  private readonly claim: PreparedQuery<ClaimParams, ClaimedRow>;
  /** recordAttempts' statement, compiled once: it runs for every attempt. */
  private readonly record = new PreparedQuery<AttemptValues, { id: string; number: number }>(
    (_param, values) => this.recordStatementOf(values),
  );

  constructor(
    private readonly db: Kysely<DB>,
    private readonly secrets: OpenedSecrets,
  ) {
    this.claim = new PreparedQuery((param) =>
      this.db
        .with('busy', (db) =>
          db
            .selectFrom(
              sql<{ endpoint_id: string; in_flight: number }>`unnest(
                (SELECT ${param('busyIds')}::text[]), (SELECT ${param('busyCounts')}::integer[]))`.as<'b'>(
                sql`b (endpoint_id, in_flight)`,
              ),
            )
            .selectAll(),
        )
        .with('candidate', (db) =>
          db
            .selectFrom('deliveries')
            .select(['id', 'endpoint_id', 'next_attempt_at'])
            // A literal, not a parameter: the partial index of due rows (deliveries_due_idx) must match.
            .where('status', '=', sql.lit('pending'))
            .where('next_attempt_at', '<=', param('now'))
            .where('endpoint_id', 'not in', (eb) =>
              eb
                .selectFrom('busy')
                .select('busy.endpoint_id')
                .where('busy.in_flight', '>=', param('perEndpoint')),
            )
            .orderBy('next_attempt_at')
            .limit(param('candidates')),
        )
        .with('shared', (db) =>
          db
            .selectFrom((eb) =>
              eb
                .selectFrom('candidate as c')
                .leftJoin('busy as b', 'b.endpoint_id', 'c.endpoint_id')
                .select((slot) => [
                  'c.id',
                  slot(
                    slot.fn.coalesce('b.in_flight', sql.lit(0)),
                    '+',
                    slot.fn
                      .agg<number>('row_number')
                      .over((over) => over.partitionBy('c.endpoint_id').orderBy('c.next_attempt_at')),
                  ).as('slot'),
                ])
                .as('c'),
            )
            .select('c.id')
            .where('c.slot', '<=', param('perEndpoint')),
        )
        .with('due', (db) =>
          db
            .selectFrom('deliveries')
            .select('id')
            .where('id', 'in', (eb) => eb.selectFrom('shared').select('shared.id'))
            .where('status', '=', sql.lit('pending'))
            .where('next_attempt_at', '<=', param('now'))
            .orderBy('next_attempt_at')
            .limit(param('limit'))
            .forUpdate()
            .skipLocked(),
        )
        .updateTable('deliveries as d')
        .from(['due', 'events as e', 'endpoints as p'])
        .set((eb) => ({ attempt_count: eb('d.attempt_count', '+', 1), next_attempt_at: param('leaseUntil') }))
        .whereRef('d.id', '=', 'due.id')
        .whereRef('e.id', '=', 'd.event_id')
        .whereRef('p.id', '=', 'd.endpoint_id')
        .returning((eb) => [
          'd.id as delivery_id',
          'd.attempt_count',
          'e.id as event_id',
          'e.payload',
          'p.id as endpoint_id',
          'p.url',
          'p.livemode',
          'p.secret_ciphertext',
          eb
            .case()
            .when('p.previous_secret_expires_at', '>', param('now'))
            .then(eb.ref('p.previous_secret_ciphertext'))
            .end()
            .as('previous_secret_ciphertext'),
          'p.previous_secret_expires_at',
        ]),
    );
  }

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
    const rows = await this.claim.execute(this.db, {
      busyIds: busy.map(([id]) => id),
      busyCounts: busy.map(([, count]) => count),
      now,
      perEndpoint: slots.perEndpoint,
      candidates: limit * CANDIDATES_PER_SLOT,
      limit,
      leaseUntil,
    });
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
    const applied = await this.record.execute(this.db, {
      deliveryId: records.map((r) => r.attempt.deliveryId),
      number: records.map((r) => r.attempt.number),
      attemptedAt: records.map((r) => r.attempt.attemptedAt),
      url: records.map((r) => r.attempt.url),
      statusCode: records.map((r) => r.attempt.statusCode ?? null),
      error: records.map((r) => r.attempt.error ?? null),
      durationMs: records.map((r) => Math.round(r.attempt.durationMs)),
      leaseUntil: records.map((r) => r.attempt.leaseUntil),
      status: records.map((r) => r.outcome.status),
      nextAttemptAt: records.map((r) => (r.outcome.status === 'pending' ? r.outcome.nextAttemptAt : null)),
      deliveredAt: records.map((r) => (r.outcome.status === 'delivered' ? r.outcome.deliveredAt : null)),
    });
    const key = (deliveryId: string, number: number) => `${deliveryId}#${number}`;
    const appliedKeys = new Set(applied.map((row) => key(row.id, row.number)));
    return records.map(({ attempt }) => appliedKeys.has(key(attempt.deliveryId, attempt.number)));
  }

  /** recordAttempts' one statement, on the arrays of its records (AttemptValues). */
  private recordStatementOf(values: AttemptValues) {
    const record = sql<AttemptRecordRow>`unnest(
          (SELECT ${values.deliveryId}::text[]),
          (SELECT ${values.number}::integer[]),
          (SELECT ${values.attemptedAt}::timestamptz[]),
          (SELECT ${values.url}::text[]),
          (SELECT ${values.statusCode}::integer[]),
          (SELECT ${values.error}::text[]),
          (SELECT ${values.durationMs}::integer[]),
          (SELECT ${values.leaseUntil}::timestamptz[]),
          (SELECT ${values.status}::text[]),
          (SELECT ${values.nextAttemptAt}::timestamptz[]),
          (SELECT ${values.deliveredAt}::timestamptz[]))`;
    // The status is compared with a sub-select, not a literal: the partial index of pending deliveries then
    // cannot serve this statement, which must find each row by its key. Statistics taken while few were pending
    // would otherwise make Postgres walk every pending delivery for each outcome, a backlog's worth per statement.
    return this.db
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
      .where('d.status', '=', sql<string>`(SELECT 'pending')`)
      .whereRef('d.next_attempt_at', '=', 'r.lease_until')
      .returning(['d.id', 'r.number']);
  }
}
