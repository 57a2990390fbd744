import { PaiementImmediatRequest, PaiementStatutRaison } from '@sika/pispi';
import { traceHeaders, type Database } from '@sika/platform';
import { sql, type Kysely, type Selectable } from 'kysely';

import type { VirementHandler, VirementRepository } from '../app/ports';
import type { NewNotification } from '../domain/callback-event';
import type { ConfirmationResult, VirementRecord, VirementStatut } from '../domain/virement';
import type { DB } from '../generated/database';
import { CLIENT_REQUEST_COLUMNS } from './client-request-columns';
import { liveWebhooks } from './sql-webhook-repository';

const VIREMENT_COLUMNS = [
  ...CLIENT_REQUEST_COLUMNS,
  'paye_nom',
  'paye_pays',
  'end2end_id',
  'date_demande',
  'date_confirmation',
  'date_envoi',
  'date_reponse',
  'date_irrevocabilite',
  'outcome_due_at',
] as const;

type VirementRow = Pick<Selectable<DB['virements']>, (typeof VIREMENT_COLUMNS)[number]>;

/** The virements' columns that make their records, to be filtered (and locked) by the caller. */
function selectVirements(db: Kysely<DB>) {
  return db.selectFrom('virements').select(VIREMENT_COLUMNS);
}

const STATUTS: readonly VirementStatut[] = ['INITIE', 'ENVOYE', 'IRREVOCABLE', 'REJETE', 'ANNULE'];

function toVirementRecord(row: VirementRow): VirementRecord {
  const statut = STATUTS.find((known) => known === row.statut);
  if (!statut) throw new Error(`virement ${row.id} has an unknown statut ${row.statut}`);
  return {
    txId: row.tx_id,
    // Stored after validation; parsing again gives the typed value (and would catch a hand-edited row).
    request: PaiementImmediatRequest.parse(row.request),
    statut,
    statutRaison: row.statut_raison === null ? null : PaiementStatutRaison.parse(row.statut_raison),
    payeNom: row.paye_nom,
    payePays: row.paye_pays,
    end2endId: row.end2end_id,
    dateDemande: row.date_demande,
    dateConfirmation: row.date_confirmation,
    dateEnvoi: row.date_envoi,
    dateReponse: row.date_reponse,
    dateIrrevocabilite: row.date_irrevocabilite,
    outcomeDueAt: row.outcome_due_at,
  };
}

export class SqlVirementRepository implements VirementRepository {
  constructor(private readonly db: Database<DB>) {}

  async insert(clientId: string, id: string, record: VirementRecord): Promise<'inserted' | 'duplicate'> {
    const { numInsertedOrUpdatedRows } = await this.db
      .insertInto('virements')
      .values({
        id,
        client_id: clientId,
        tx_id: record.txId,
        request: sql`${JSON.stringify(record.request)}::jsonb`,
        statut: record.statut,
        statut_raison: record.statutRaison,
        paye_nom: record.payeNom,
        paye_pays: record.payePays,
        end2end_id: record.end2endId,
        date_demande: record.dateDemande,
        date_confirmation: record.dateConfirmation,
        date_envoi: record.dateEnvoi,
        date_reponse: record.dateReponse,
        date_irrevocabilite: record.dateIrrevocabilite,
        outcome_due_at: record.outcomeDueAt,
        trace_context: sql`${JSON.stringify(traceHeaders())}::jsonb`,
      })
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    return numInsertedOrUpdatedRows === 1n ? 'inserted' : 'duplicate';
  }

  async find(clientId: string, txId: string): Promise<VirementRecord | null> {
    const row = await selectVirements(this.db)
      .where('client_id', '=', clientId)
      .where('tx_id', '=', txId)
      .executeTakeFirst();
    return row ? toVirementRecord(row) : null;
  }

  confirm(
    clientId: string,
    txId: string,
    decide: (record: VirementRecord) => ConfirmationResult,
  ): Promise<ConfirmationResult | null> {
    return this.db.transact(async (tx) => {
      const row = await selectVirements(tx)
        .where('client_id', '=', clientId)
        .where('tx_id', '=', txId)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return null;
      const result = decide(toVirementRecord(row));
      if (result.kind === 'decided' && result.changed) await save(tx, row.id, result.record, [], null);
      return result;
    });
  }

  answerDue(now: Date, limit: number, handle: VirementHandler): Promise<number> {
    return this.db.transact(async (tx) => {
      const due = await selectVirements(tx)
        .where('outcome_due_at', '<=', now)
        .orderBy('outcome_due_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length === 0) return 0;
      const webhooks = await liveWebhooks(
        tx,
        due.map((row) => row.client_id),
      );
      for (const row of due) {
        const before = toVirementRecord(row);
        const answered = handle(before, webhooks.get(row.client_id) ?? []);
        const record = answered?.virement ?? { ...before, outcomeDueAt: null };
        await save(tx, row.id, record, answered?.notifications ?? [], now);
      }
      return due.length;
    });
  }
}

/** Saves what a transfer's life changed and the callbacks it queued (due at `notifiedAt`), in one statement. */
async function save(
  tx: Kysely<DB>,
  virementId: string,
  record: VirementRecord,
  notifications: readonly NewNotification[],
  notifiedAt: Date | null,
): Promise<void> {
  const notified = sql<Date | null>`${notifiedAt}::timestamptz`;
  const ids = notifications.map((n) => n.id);
  const webhookIds = notifications.map((n) => n.webhookId);
  const evCodes = notifications.map((n) => n.evCode);
  const bodies = notifications.map((n) => n.body);
  await tx
    .with('callbacks', (db) =>
      db
        .insertInto('notifications')
        .columns([
          'id',
          'webhook_id',
          'virement_id',
          'ev_code',
          'body',
          'next_attempt_at',
          'created_at',
          'trace_context',
        ])
        .expression((eb) =>
          eb
            .selectFrom(
              sql<{ id: string; webhook_id: string; ev_code: string; body: string }>`unnest(${ids}::text[],
                ${webhookIds}::text[], ${evCodes}::text[], ${bodies}::text[])`.as<'n'>(
                sql`n (id, webhook_id, ev_code, body)`,
              ),
            )
            .select([
              'n.id',
              'n.webhook_id',
              sql<string>`${virementId}::text`.as('virement_id'),
              'n.ev_code',
              'n.body',
              notified.as('next_attempt_at'),
              notified.as('created_at'),
              eb
                .selectFrom('virements')
                .select('trace_context')
                .where('id', '=', virementId)
                .as('trace_context'),
            ]),
        ),
    )
    .updateTable('virements')
    .set({
      statut: record.statut,
      statut_raison: record.statutRaison,
      date_confirmation: record.dateConfirmation,
      date_envoi: record.dateEnvoi,
      date_reponse: record.dateReponse,
      date_irrevocabilite: record.dateIrrevocabilite,
      outcome_due_at: record.outcomeDueAt,
    })
    .where('id', '=', virementId)
    .execute();
}
