import { PaiementImmediatRequest, PaiementStatutRaison } from '@sika/pispi';
import { traceHeaders, type SqlDatabase, type SqlTransaction } from '@sika/platform';

import type { VirementHandler, VirementRepository } from '../app/ports';
import type { NewNotification } from '../domain/callback-event';
import type { ConfirmationResult, VirementRecord, VirementStatut } from '../domain/virement';
import { liveWebhooks } from './sql-webhook-repository';

interface VirementRow {
  id: string;
  client_id: string;
  tx_id: string;
  request: unknown;
  statut: string;
  statut_raison: string | null;
  paye_nom: string | null;
  paye_pays: string | null;
  end2end_id: string;
  date_demande: Date;
  date_confirmation: Date | null;
  date_envoi: Date | null;
  date_reponse: Date | null;
  date_irrevocabilite: Date | null;
  outcome_due_at: Date | null;
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
  constructor(private readonly db: SqlDatabase) {}

  async insert(clientId: string, id: string, record: VirementRecord): Promise<'inserted' | 'duplicate'> {
    const count = await this.db.$executeRaw`
      INSERT INTO virements (id, client_id, tx_id, request, statut, statut_raison, paye_nom, paye_pays,
        end2end_id, date_demande, date_confirmation, date_envoi, date_reponse, date_irrevocabilite,
        outcome_due_at, trace_context)
      VALUES (${id}, ${clientId}, ${record.txId}, ${JSON.stringify(record.request)}::jsonb, ${record.statut},
        ${record.statutRaison}, ${record.payeNom}, ${record.payePays}, ${record.end2endId},
        ${record.dateDemande}, ${record.dateConfirmation}, ${record.dateEnvoi}, ${record.dateReponse},
        ${record.dateIrrevocabilite}, ${record.outcomeDueAt}, ${JSON.stringify(traceHeaders())}::jsonb)
      ON CONFLICT DO NOTHING`;
    return count === 1 ? 'inserted' : 'duplicate';
  }

  async find(clientId: string, txId: string): Promise<VirementRecord | null> {
    const [row] = await this.db.$queryRaw<VirementRow[]>`
      SELECT id, client_id, tx_id, request, statut, statut_raison, paye_nom, paye_pays, end2end_id,
        date_demande, date_confirmation, date_envoi, date_reponse, date_irrevocabilite, outcome_due_at
      FROM virements WHERE client_id = ${clientId} AND tx_id = ${txId}`;
    return row ? toVirementRecord(row) : null;
  }

  confirm(
    clientId: string,
    txId: string,
    decide: (record: VirementRecord) => ConfirmationResult,
  ): Promise<ConfirmationResult | null> {
    return this.db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<VirementRow[]>`
        SELECT id, client_id, tx_id, request, statut, statut_raison, paye_nom, paye_pays, end2end_id,
          date_demande, date_confirmation, date_envoi, date_reponse, date_irrevocabilite, outcome_due_at
        FROM virements WHERE client_id = ${clientId} AND tx_id = ${txId}
        FOR UPDATE`;
      if (!row) return null;
      const result = decide(toVirementRecord(row));
      if (result.kind === 'decided' && result.changed) await save(tx, row.id, result.record, [], null);
      return result;
    });
  }

  answerDue(now: Date, limit: number, handle: VirementHandler): Promise<number> {
    return this.db.$transaction(async (tx) => {
      const due = await tx.$queryRaw<VirementRow[]>`
        SELECT id, client_id, tx_id, request, statut, statut_raison, paye_nom, paye_pays, end2end_id,
          date_demande, date_confirmation, date_envoi, date_reponse, date_irrevocabilite, outcome_due_at
        FROM virements WHERE outcome_due_at <= ${now}
        ORDER BY outcome_due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
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
  tx: SqlTransaction,
  virementId: string,
  record: VirementRecord,
  notifications: readonly NewNotification[],
  notifiedAt: Date | null,
): Promise<void> {
  await tx.$executeRaw`
    WITH callbacks AS (
      INSERT INTO notifications (id, webhook_id, virement_id, ev_code, body, next_attempt_at, created_at,
        trace_context)
      SELECT n.id, n.webhook_id, ${virementId}::text, n.ev_code, n.body, ${notifiedAt}::timestamptz,
        ${notifiedAt}::timestamptz, (SELECT trace_context FROM virements WHERE id = ${virementId})
      FROM unnest(${notifications.map((n) => n.id)}::text[], ${notifications.map((n) => n.webhookId)}::text[],
        ${notifications.map((n) => n.evCode)}::text[], ${notifications.map((n) => n.body)}::text[])
        AS n(id, webhook_id, ev_code, body)
    )
    UPDATE virements SET statut = ${record.statut}, statut_raison = ${record.statutRaison},
      date_confirmation = ${record.dateConfirmation}, date_envoi = ${record.dateEnvoi},
      date_reponse = ${record.dateReponse}, date_irrevocabilite = ${record.dateIrrevocabilite},
      outcome_due_at = ${record.outcomeDueAt}
    WHERE id = ${virementId}`;
}
