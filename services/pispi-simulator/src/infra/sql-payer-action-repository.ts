import { PreparedQuery, type Database } from '@sika/platform';
import { sql, type Kysely } from 'kysely';

import type {
  ClaimedNotification,
  PayerActionHandler,
  PayerActionRepository,
  WebhookRow,
} from '../app/ports';
import type { AnsweredDemande, NewNotification } from '../domain/callback-event';
import type { DemandeRecord, PayerAction } from '../domain/demande';
import type { DB } from '../generated/database';
import {
  type DemandeRow,
  JOINED_DEMANDE_COLUMNS,
  selectDemandes,
  toDemandeRecord,
} from './sql-demande-repository';
import { liveWebhooks } from './sql-webhook-repository';
import { unnestedRows } from './unnested-rows';

/**
 * applyDue's claim, compiled once (PreparedQuery): every round of the worker runs it. The demande is locked with
 * its decision: one that a pay or a return holds is skipped, to be applied at a next round, and neither of them
 * can change it while the worker answers.
 */
const dueStatement = new PreparedQuery(
  (_param, values: { now: Date; dueSince: Date | null; limit: number }, db: Kysely<DB>) =>
    db
      .selectFrom('payer_decisions as p')
      .innerJoin('demandes as d', 'd.id', 'p.demande_id')
      .select(['p.action', ...JOINED_DEMANDE_COLUMNS, 'd.trace_context'])
      .$narrowType<{ action: PayerAction }>()
      .where('p.applied_at', 'is', null)
      .where('p.due_at', '<=', values.now)
      .where('p.due_at', '>', sql<Date>`COALESCE(${values.dueSince}::timestamptz, '-infinity')`)
      .orderBy('p.due_at')
      .limit(values.limit)
      .forUpdate(['p', 'd'])
      .skipLocked(),
);

/** Its methods are typed by the port, so that their parameters are written once, there. */
export class SqlPayerActionRepository implements PayerActionRepository {
  constructor(private readonly db: Database<DB>) {}

  readonly applyDue: PayerActionRepository['applyDue'] = (now, dueSince, limit, leaseUntil, handle) =>
    this.db.transact(async (tx) => {
      const due = await dueStatement.execute(tx, { now, dueSince, limit });
      if (due.length === 0) return { applied: 0, leased: [] };
      const webhooks = await liveWebhooks(
        tx,
        due.map((row) => row.client_id),
      );
      const leased: ClaimedNotification[] = [];
      const writes: DemandeWrite[] = [];
      for (const row of due) {
        const clientWebhooks = webhooks.get(row.client_id) ?? [];
        const { answered, write } = answer(row, row.action, now, leaseUntil, handle, clientWebhooks);
        writes.push(write);
        for (const notification of answered?.notifications ?? []) {
          const webhook = clientWebhooks.find((candidate) => candidate.id === notification.webhookId);
          if (!webhook) continue;
          leased.push({
            id: notification.id,
            callbackUrl: webhook.callbackUrl,
            secret: webhook.secret,
            body: notification.body,
            attempts: 0,
            traceContext: row.trace_context,
          });
        }
      }
      await save(tx, writes);
      return { applied: due.length, leased };
    });

  readonly changePaid: PayerActionRepository['changePaid'] = (clientId, paiementEnd2endId, change) =>
    this.db.transact(async (tx) => {
      const row = await lockDemande(tx, clientId, 'paiement_end2end_id', paiementEnd2endId);
      if (!row) return null;
      const before = toDemandeRecord(row);
      const { demande, next } = change(before);
      if (demande === before) return before;
      await save(tx, [
        {
          demandeId: row.id,
          demande,
          notifications: [],
          notifiedAt: null,
          firstAttemptAt: null,
          decision: next && { ...next, appliedAt: null },
        },
      ]);
      return demande;
    });

  readonly applyNow: PayerActionRepository['applyNow'] = (clientId, txId, action, now, handle) =>
    this.db.transact(async (tx) => {
      // The demande's lock keeps the worker off its scheduled action until this one is saved.
      const row = await lockDemande(tx, clientId, 'tx_id', txId);
      if (!row) return null;
      const webhooks = await liveWebhooks(tx, [row.client_id]);
      const { before, answered, write } = answer(
        row,
        action,
        now,
        now,
        handle,
        webhooks.get(row.client_id) ?? [],
      );
      await save(tx, [write]);
      return { before, answered };
    });
}

/** The client's demande with this txId, or paid by this end-to-end id, locked until the transaction ends. */
function lockDemande(
  tx: Kysely<DB>,
  clientId: string,
  by: 'tx_id' | 'paiement_end2end_id',
  value: string,
): Promise<DemandeRow | undefined> {
  return selectDemandes(tx)
    .where('client_id', '=', clientId)
    .where(by, '=', value)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * One action applied to one demande: the answer, and what saving it writes (the demande, its callbacks, first
 * due at `firstAttemptAt`, and what follows).
 */
function answer(
  row: DemandeRow,
  action: PayerAction,
  now: Date,
  firstAttemptAt: Date,
  handle: PayerActionHandler,
  webhooks: readonly WebhookRow[],
): { before: DemandeRecord; answered: AnsweredDemande | undefined; write: DemandeWrite } {
  const before = toDemandeRecord(row);
  const answered = handle(before, action, webhooks);
  const next = answered?.next;
  return {
    before,
    answered,
    write: {
      demandeId: row.id,
      demande: answered?.demande,
      notifications: answered?.notifications ?? [],
      notifiedAt: now,
      firstAttemptAt,
      decision: next ? { ...next, appliedAt: null } : { action, dueAt: now, appliedAt: now },
    },
  };
}

interface DemandeWrite {
  demandeId: string;
  /** The demande's new state; undefined leaves it as it is. */
  demande: DemandeRecord | undefined;
  notifications: readonly NewNotification[];
  /** When the callbacks were written. */
  notifiedAt: Date | null;
  /** When the callbacks are first due: now for the claim to take, or the end of this process's lease. */
  firstAttemptAt: Date | null;
  /**
   * A demande has one thing due at a time: a scheduled action (appliedAt null) replaces its decision, an
   * applied one marks it applied. Undefined leaves the decision as it is.
   */
  decision: { action: PayerAction; dueAt: Date; appliedAt: Date | null } | undefined;
}

/** The columns of a callback the worker writes, but its demande's trace context. */
const CALLBACK_COLUMNS = [
  'id',
  'webhook_id',
  'demande_id',
  'ev_code',
  'body',
  'next_attempt_at',
  'created_at',
] as const;

/**
 * Saves demandes, their callbacks and their decisions in one statement, however many: a worker's batch of
 * answers costs one round trip. Each array is unnested from a sub-select, so the statement is planned once
 * per connection whatever the batch's size (payments' write says why).
 */
async function save(tx: Kysely<DB>, writes: readonly DemandeWrite[]): Promise<void> {
  await saveStatement.execute(tx, savedColumns(writes));
}

/** The demandes, callbacks and decisions save writes, one array per column of each. */
function savedColumns(writes: readonly DemandeWrite[]) {
  const answered = writes.flatMap(({ demandeId, demande }) =>
    demande === undefined ? [] : [{ id: demandeId, demande, retour: demande.retour ?? null }],
  );
  const notifications = writes.flatMap((write) =>
    write.notifications.map((notification) => ({ ...notification, write })),
  );
  const decisions = writes.flatMap(({ demandeId, decision }) =>
    decision === undefined ? [] : [{ demandeId, ...decision }],
  );
  return {
    answered: {
      id: answered.map((a) => a.id),
      statut: answered.map((a) => a.demande.statut),
      statutRaison: answered.map((a) => a.demande.statutRaison ?? null),
      paiementEnd2endId: answered.map((a) => a.demande.paiementEnd2endId ?? null),
      dateReponse: answered.map((a) => a.demande.dateReponse ?? null),
      dateIrrevocabilite: answered.map((a) => a.demande.dateIrrevocabilite ?? null),
      retourStatut: answered.map((a) => a.retour?.statut ?? null),
      retourStatutRaison: answered.map((a) => a.retour?.statutRaison ?? null),
      retourEnvois: answered.map((a) => a.retour?.envois ?? 0),
      retourDateDemande: answered.map((a) => a.retour?.dateDemande ?? null),
      retourDateReponse: answered.map((a) => a.retour?.dateReponse ?? null),
    },
    notifications: {
      id: notifications.map((n) => n.id),
      webhookId: notifications.map((n) => n.webhookId),
      demandeId: notifications.map((n) => n.write.demandeId),
      evCode: notifications.map((n) => n.evCode),
      body: notifications.map((n) => n.body),
      nextAttemptAt: notifications.map((n) => n.write.firstAttemptAt),
      createdAt: notifications.map((n) => n.write.notifiedAt),
    },
    decisions: {
      demandeId: decisions.map((d) => d.demandeId),
      action: decisions.map((d) => d.action),
      dueAt: decisions.map((d) => d.dueAt),
      appliedAt: decisions.map((d) => d.appliedAt),
    },
  };
}

/** save's statement, compiled once (PreparedQuery): every answer of a payer runs it. */
const saveStatement = new PreparedQuery((_param, values: ReturnType<typeof savedColumns>, db: Kysely<DB>) =>
  db
    .with('answer', (db) =>
      db
        .updateTable('demandes as d')
        .from(
          unnestedRows('a', {
            id: { type: 'text', values: values.answered.id },
            statut: { type: 'text', values: values.answered.statut },
            statut_raison: { type: 'text', values: values.answered.statutRaison },
            paiement_end2end_id: { type: 'text', values: values.answered.paiementEnd2endId },
            date_reponse: { type: 'timestamptz', values: values.answered.dateReponse },
            date_irrevocabilite: { type: 'timestamptz', values: values.answered.dateIrrevocabilite },
            retour_statut: { type: 'text', values: values.answered.retourStatut },
            retour_statut_raison: { type: 'text', values: values.answered.retourStatutRaison },
            retour_envois: { type: 'int', values: values.answered.retourEnvois },
            retour_date_demande: { type: 'timestamptz', values: values.answered.retourDateDemande },
            retour_date_reponse: { type: 'timestamptz', values: values.answered.retourDateReponse },
          }),
        )
        .set((eb) => ({
          statut: eb.ref('a.statut'),
          statut_raison: eb.ref('a.statut_raison'),
          paiement_end2end_id: eb.ref('a.paiement_end2end_id'),
          date_reponse: eb.ref('a.date_reponse'),
          date_irrevocabilite: eb.ref('a.date_irrevocabilite'),
          retour_statut: eb.ref('a.retour_statut'),
          retour_statut_raison: eb.ref('a.retour_statut_raison'),
          retour_envois: eb.ref('a.retour_envois'),
          retour_date_demande: eb.ref('a.retour_date_demande'),
          retour_date_reponse: eb.ref('a.retour_date_reponse'),
        }))
        .whereRef('d.id', '=', 'a.id'),
    )
    .with('callbacks', (db) =>
      db
        .insertInto('notifications')
        .columns([...CALLBACK_COLUMNS, 'trace_context'])
        .expression(
          db
            .selectFrom(
              unnestedRows('n', {
                id: { type: 'text', values: values.notifications.id },
                webhook_id: { type: 'text', values: values.notifications.webhookId },
                demande_id: { type: 'text', values: values.notifications.demandeId },
                ev_code: { type: 'text', values: values.notifications.evCode },
                body: { type: 'text', values: values.notifications.body },
                next_attempt_at: { type: 'timestamptz', values: values.notifications.nextAttemptAt },
                created_at: { type: 'timestamptz', values: values.notifications.createdAt },
              }),
            )
            .innerJoin('demandes as d', 'd.id', 'n.demande_id')
            .select([...CALLBACK_COLUMNS.map((column) => `n.${column}` as const), 'd.trace_context']),
        ),
    )
    .insertInto('payer_decisions')
    .columns(['demande_id', 'action', 'due_at', 'applied_at'])
    .expression((eb) =>
      eb
        .selectFrom(
          unnestedRows('p', {
            demande_id: { type: 'text', values: values.decisions.demandeId },
            action: { type: 'text', values: values.decisions.action },
            due_at: { type: 'timestamptz', values: values.decisions.dueAt },
            applied_at: { type: 'timestamptz', values: values.decisions.appliedAt },
          }),
        )
        .selectAll(),
    )
    .onConflict((conflict) =>
      conflict.column('demande_id').doUpdateSet((eb) => {
        // An applied action keeps what was scheduled; a scheduled one replaces it.
        const unlessApplied = <Column extends 'action' | 'due_at'>(column: Column) =>
          eb
            .case()
            .when('excluded.applied_at', 'is', null)
            .then(eb.ref(`excluded.${column}`))
            .else(eb.ref(`payer_decisions.${column}`))
            .end();
        return {
          action: unlessApplied('action'),
          due_at: unlessApplied('due_at'),
          applied_at: eb.ref('excluded.applied_at'),
        };
      }),
    ),
);
