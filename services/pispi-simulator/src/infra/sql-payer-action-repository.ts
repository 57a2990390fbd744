import type { SqlDatabase, SqlTransaction } from '@sika/platform';

import type {
  AppliedPayerActions,
  ClaimedNotification,
  PayerActionHandler,
  PayerActionRepository,
  WebhookRow,
} from '../app/ports';
import type { AnsweredDemande, NewNotification } from '../domain/callback-event';
import type { DemandeRecord, PayerAction, ScheduledPayerAction } from '../domain/demande';
import { type DemandeRow, toDemandeRecord } from './sql-demande-repository';
import { liveWebhooks } from './sql-webhook-repository';

export class SqlPayerActionRepository implements PayerActionRepository {
  constructor(private readonly db: SqlDatabase) {}

  applyDue(
    now: Date,
    dueSince: Date | null,
    limit: number,
    leaseUntil: Date,
    handle: PayerActionHandler,
  ): Promise<AppliedPayerActions> {
    return this.db.$transaction(async (tx) => {
      // The demande is locked with its decision: one that a pay or a return holds is skipped, to be applied
      // at a next round, and neither of them can change it while the worker answers.
      const due = await tx.$queryRaw<(DemandeRow & { action: PayerAction })[]>`
        SELECT p.action, d.id, d.client_id, d.tx_id, d.request, d.statut, d.statut_raison, d.payeur_nom,
          d.payeur_pays, d.end2end_id, d.paiement_end2end_id, d.date_demande, d.date_envoi, d.date_reponse,
          d.date_irrevocabilite, d.retour_statut, d.retour_statut_raison, d.retour_envois,
          d.retour_date_demande, d.retour_date_reponse, d.trace_context
        FROM payer_decisions p JOIN demandes d ON d.id = p.demande_id
        WHERE p.applied_at IS NULL AND p.due_at <= ${now}
          AND p.due_at > COALESCE(${dueSince}::timestamptz, '-infinity')
        ORDER BY p.due_at
        LIMIT ${limit}
        FOR UPDATE OF p, d SKIP LOCKED`;
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
            traceContext: row.trace_context ?? {},
          });
        }
      }
      await save(tx, writes);
      return { applied: due.length, leased };
    });
  }

  changePaid(
    clientId: string,
    paiementEnd2endId: string,
    change: (demande: DemandeRecord) => { demande: DemandeRecord; next: ScheduledPayerAction | undefined },
  ): Promise<DemandeRecord | null> {
    return this.db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<DemandeRow[]>`
        SELECT id, client_id, tx_id, request, statut, statut_raison, payeur_nom, payeur_pays, end2end_id,
          paiement_end2end_id, date_demande, date_envoi, date_reponse, date_irrevocabilite, retour_statut,
          retour_statut_raison, retour_envois, retour_date_demande, retour_date_reponse
        FROM demandes WHERE client_id = ${clientId} AND paiement_end2end_id = ${paiementEnd2endId}
        FOR UPDATE`;
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
  }

  applyNow(
    clientId: string,
    txId: string,
    action: PayerAction,
    now: Date,
    handle: PayerActionHandler,
  ): Promise<{ before: DemandeRecord; answered: AnsweredDemande | undefined } | null> {
    return this.db.$transaction(async (tx) => {
      // The demande's lock keeps the worker off its scheduled action until this one is saved.
      const [row] = await tx.$queryRaw<DemandeRow[]>`
        SELECT id, client_id, tx_id, request, statut, statut_raison, payeur_nom, payeur_pays, end2end_id,
          paiement_end2end_id, date_demande, date_envoi, date_reponse, date_irrevocabilite, retour_statut,
          retour_statut_raison, retour_envois, retour_date_demande, retour_date_reponse
        FROM demandes WHERE client_id = ${clientId} AND tx_id = ${txId}
        FOR UPDATE`;
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

/**
 * Saves demandes, their callbacks and their decisions in one statement, however many: a worker's batch of
 * answers costs one round trip. Each array is unnested from a sub-select, so the statement is planned once
 * per connection whatever the batch's size (payments' write says why).
 */
async function save(tx: SqlTransaction, writes: readonly DemandeWrite[]): Promise<void> {
  const answered = writes.flatMap(({ demandeId, demande }) =>
    demande === undefined ? [] : [{ id: demandeId, demande, retour: demande.retour ?? null }],
  );
  const notifications = writes.flatMap((write) =>
    write.notifications.map((notification) => ({ ...notification, write })),
  );
  const decisions = writes.flatMap(({ demandeId, decision }) =>
    decision === undefined ? [] : [{ demandeId, ...decision }],
  );
  await tx.$executeRaw`
    WITH answer AS (
      UPDATE demandes d SET statut = a.statut, statut_raison = a.statut_raison,
        paiement_end2end_id = a.paiement_end2end_id, date_reponse = a.date_reponse,
        date_irrevocabilite = a.date_irrevocabilite, retour_statut = a.retour_statut,
        retour_statut_raison = a.retour_statut_raison, retour_envois = a.retour_envois,
        retour_date_demande = a.retour_date_demande, retour_date_reponse = a.retour_date_reponse
      FROM unnest((SELECT ${answered.map((a) => a.id)}::text[]),
        (SELECT ${answered.map((a) => a.demande.statut)}::text[]),
        (SELECT ${answered.map((a) => a.demande.statutRaison ?? null)}::text[]),
        (SELECT ${answered.map((a) => a.demande.paiementEnd2endId ?? null)}::text[]),
        (SELECT ${answered.map((a) => a.demande.dateReponse ?? null)}::timestamptz[]),
        (SELECT ${answered.map((a) => a.demande.dateIrrevocabilite ?? null)}::timestamptz[]),
        (SELECT ${answered.map((a) => a.retour?.statut ?? null)}::text[]),
        (SELECT ${answered.map((a) => a.retour?.statutRaison ?? null)}::text[]),
        (SELECT ${answered.map((a) => a.retour?.envois ?? 0)}::int[]),
        (SELECT ${answered.map((a) => a.retour?.dateDemande ?? null)}::timestamptz[]),
        (SELECT ${answered.map((a) => a.retour?.dateReponse ?? null)}::timestamptz[]))
        AS a(id, statut, statut_raison, paiement_end2end_id, date_reponse, date_irrevocabilite, retour_statut,
          retour_statut_raison, retour_envois, retour_date_demande, retour_date_reponse)
      WHERE d.id = a.id
    ), callbacks AS (
      INSERT INTO notifications (id, webhook_id, demande_id, ev_code, body, next_attempt_at, created_at,
        trace_context)
      SELECT n.*, d.trace_context FROM unnest((SELECT ${notifications.map((n) => n.id)}::text[]),
        (SELECT ${notifications.map((n) => n.webhookId)}::text[]),
        (SELECT ${notifications.map((n) => n.write.demandeId)}::text[]),
        (SELECT ${notifications.map((n) => n.evCode)}::text[]),
        (SELECT ${notifications.map((n) => n.body)}::text[]),
        (SELECT ${notifications.map((n) => n.write.firstAttemptAt)}::timestamptz[]),
        (SELECT ${notifications.map((n) => n.write.notifiedAt)}::timestamptz[]))
        AS n (id, webhook_id, demande_id, ev_code, body, next_attempt_at, created_at)
        JOIN demandes d ON d.id = n.demande_id
    )
    INSERT INTO payer_decisions (demande_id, action, due_at, applied_at)
    SELECT * FROM unnest((SELECT ${decisions.map((d) => d.demandeId)}::text[]),
      (SELECT ${decisions.map((d) => d.action)}::text[]),
      (SELECT ${decisions.map((d) => d.dueAt)}::timestamptz[]),
      (SELECT ${decisions.map((d) => d.appliedAt)}::timestamptz[]))
    ON CONFLICT (demande_id) DO UPDATE SET
      action = CASE WHEN EXCLUDED.applied_at IS NULL THEN EXCLUDED.action ELSE payer_decisions.action END,
      due_at = CASE WHEN EXCLUDED.applied_at IS NULL THEN EXCLUDED.due_at ELSE payer_decisions.due_at END,
      applied_at = EXCLUDED.applied_at`;
}
