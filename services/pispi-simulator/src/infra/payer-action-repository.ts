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
import { type DemandeRow, toDemandeRecord } from './demande-repository';
import { liveWebhooks } from './webhook-repository';

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
          d.retour_date_demande, d.retour_date_reponse
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
      for (const row of due) {
        const clientWebhooks = webhooks.get(row.client_id) ?? [];
        const { answered } = await apply(tx, row, row.action, now, leaseUntil, handle, clientWebhooks);
        for (const notification of answered?.notifications ?? []) {
          const webhook = clientWebhooks.find((candidate) => candidate.id === notification.webhookId);
          if (!webhook) continue;
          leased.push({
            id: notification.id,
            callbackUrl: webhook.callbackUrl,
            secret: webhook.secret,
            body: notification.body,
            attempts: 0,
          });
        }
      }
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
      await save(tx, row.id, {
        demande,
        notifications: [],
        notifiedAt: null,
        firstAttemptAt: null,
        decision: next && { ...next, appliedAt: null },
      });
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
      return apply(tx, row, action, now, now, handle, webhooks.get(row.client_id) ?? []);
    });
  }
}

/**
 * Applies one action to one demande: saves the answer and its callbacks (first due at `firstAttemptAt`), and
 * schedules what follows.
 */
async function apply(
  tx: SqlTransaction,
  row: DemandeRow,
  action: PayerAction,
  now: Date,
  firstAttemptAt: Date,
  handle: PayerActionHandler,
  webhooks: readonly WebhookRow[],
): Promise<{ before: DemandeRecord; answered: AnsweredDemande | undefined }> {
  const before = toDemandeRecord(row);
  const answered = handle(before, action, webhooks);
  const next = answered?.next;
  await save(tx, row.id, {
    demande: answered?.demande,
    notifications: answered?.notifications ?? [],
    notifiedAt: now,
    firstAttemptAt,
    decision: next ? { ...next, appliedAt: null } : { action, dueAt: now, appliedAt: now },
  });
  return { before, answered };
}

interface DemandeChange {
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

/** Saves the demande, its callbacks and its decision in one statement. */
async function save(tx: SqlTransaction, demandeId: string, change: DemandeChange): Promise<void> {
  const { demande, notifications, notifiedAt, firstAttemptAt, decision } = change;
  const retour = demande?.retour ?? null;
  await tx.$executeRaw`
    WITH answer AS (
      UPDATE demandes SET statut = ${demande?.statut ?? null}, statut_raison = ${demande?.statutRaison ?? null},
        paiement_end2end_id = ${demande?.paiementEnd2endId ?? null},
        date_reponse = ${demande?.dateReponse ?? null},
        date_irrevocabilite = ${demande?.dateIrrevocabilite ?? null},
        retour_statut = ${retour?.statut ?? null}, retour_statut_raison = ${retour?.statutRaison ?? null},
        retour_envois = ${retour?.envois ?? 0}, retour_date_demande = ${retour?.dateDemande ?? null},
        retour_date_reponse = ${retour?.dateReponse ?? null}
      WHERE id = ${demandeId} AND ${demande !== undefined}::boolean
    ), callbacks AS (
      INSERT INTO notifications (id, webhook_id, demande_id, ev_code, body, next_attempt_at, created_at)
      SELECT n.id, n.webhook_id, ${demandeId}::text, n.ev_code, n.body, ${firstAttemptAt}::timestamptz,
        ${notifiedAt}::timestamptz
      FROM unnest(${notifications.map((n) => n.id)}::text[], ${notifications.map((n) => n.webhookId)}::text[],
        ${notifications.map((n) => n.evCode)}::text[], ${notifications.map((n) => n.body)}::text[])
        AS n(id, webhook_id, ev_code, body)
    )
    INSERT INTO payer_decisions (demande_id, action, due_at, applied_at)
    SELECT ${demandeId}::text, ${decision?.action ?? null}::text, ${decision?.dueAt ?? null}::timestamptz,
      ${decision?.appliedAt ?? null}::timestamptz
    WHERE ${decision !== undefined}::boolean
    ON CONFLICT (demande_id) DO UPDATE SET
      action = CASE WHEN EXCLUDED.applied_at IS NULL THEN EXCLUDED.action ELSE payer_decisions.action END,
      due_at = CASE WHEN EXCLUDED.applied_at IS NULL THEN EXCLUDED.due_at ELSE payer_decisions.due_at END,
      applied_at = EXCLUDED.applied_at`;
}
