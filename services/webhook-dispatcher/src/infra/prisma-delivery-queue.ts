import type { AttemptRecord, ClaimedDelivery, DeliveryQueue } from '../app/ports';
import type { DeliveryOutcome } from '../domain/retry-schedule';
import type { PrismaClient } from '../generated/prisma/client';
import type { SecretBox } from '@sika/platform';

const UNREADABLE_SECRET =
  'the endpoint secret cannot be decrypted with WEBHOOK_SECRET_KEY nor WEBHOOK_SECRET_PREVIOUS_KEYS';

interface ClaimedRow {
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

export class PrismaDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly secrets: SecretBox,
  ) {}

  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]> {
    // SKIP LOCKED: workers of every replica scan at once without waiting for, or taking, each other's rows.
    // Pushing next_attempt_at to the end of the lease is what keeps the claim after this statement commits.
    const rows = await this.prisma.$queryRaw<ClaimedRow[]>`
      WITH due AS (
        SELECT id FROM deliveries
         WHERE status = 'pending' AND next_attempt_at <= ${now}
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
                p.previous_secret_expires_at`;
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
      const secret = this.secrets.open(row.secret_ciphertext, row.endpoint_id);
      const previousSecret =
        row.previous_secret_ciphertext === null || row.previous_secret_expires_at === null
          ? null
          : {
              secret: this.secrets.open(row.previous_secret_ciphertext, row.endpoint_id),
              expiresAt: row.previous_secret_expires_at,
            };
      return { secret, previousSecret };
    } catch {
      return undefined;
    }
  }

  recordAttempt(attempt: AttemptRecord, outcome: DeliveryOutcome): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      await tx.webhookDeliveryAttempt.create({
        data: {
          deliveryId: attempt.deliveryId,
          number: attempt.number,
          attemptedAt: attempt.attemptedAt,
          url: attempt.url,
          statusCode: attempt.statusCode ?? null,
          error: attempt.error ?? null,
          durationMs: Math.round(attempt.durationMs),
        },
      });
      // A later claim changes the attempt count; a resend, the due time the lease was written in.
      const { count } = await tx.webhookDelivery.updateMany({
        where: {
          id: attempt.deliveryId,
          attemptCount: attempt.number,
          status: 'pending',
          nextAttemptAt: attempt.leaseUntil,
        },
        data: {
          status: outcome.status,
          nextAttemptAt: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
          ...(outcome.status === 'delivered' && { deliveredAt: outcome.deliveredAt }),
        },
      });
      return count === 1;
    });
  }
}
