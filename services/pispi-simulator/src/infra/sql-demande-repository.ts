import {
  DemandePaiementRequest,
  DemandePaiementStatut,
  DemandePaiementStatutRaison,
  RetourStatut,
  RetourStatutRaison,
} from '@sika/pispi';
import { StatementBatcher, traceHeaders, type SqlDatabase } from '@sika/platform';

import type { DemandeRepository } from '../app/ports';
import type { DemandeRecord, ScheduledPayerAction } from '../domain/demande';

/** A `demandes` row as its queries select it (`client_id` for the worker, which serves every client). */
export interface DemandeRow {
  id: string;
  client_id: string;
  tx_id: string;
  request: unknown;
  statut: string;
  statut_raison: string | null;
  payeur_nom: string | null;
  payeur_pays: string | null;
  end2end_id: string;
  paiement_end2end_id: string | null;
  date_demande: Date;
  date_envoi: Date | null;
  date_reponse: Date | null;
  date_irrevocabilite: Date | null;
  retour_statut: string | null;
  retour_statut_raison: string | null;
  retour_envois: number;
  retour_date_demande: Date | null;
  retour_date_reponse: Date | null;
  /** Selected by the worker only: the callbacks it writes carry it. */
  trace_context?: Record<string, string>;
}

export function toDemandeRecord(row: DemandeRow): DemandeRecord {
  return {
    txId: row.tx_id,
    // Stored after validation; parsing again gives the typed value (and would catch a hand-edited row).
    request: DemandePaiementRequest.parse(row.request),
    statut: DemandePaiementStatut.parse(row.statut),
    statutRaison: row.statut_raison === null ? null : DemandePaiementStatutRaison.parse(row.statut_raison),
    payeurNom: row.payeur_nom,
    payeurPays: row.payeur_pays,
    end2endId: row.end2end_id,
    paiementEnd2endId: row.paiement_end2end_id,
    dateDemande: row.date_demande,
    dateEnvoi: row.date_envoi,
    dateReponse: row.date_reponse,
    dateIrrevocabilite: row.date_irrevocabilite,
    retour:
      row.retour_statut === null || row.retour_date_demande === null
        ? null
        : {
            statut: RetourStatut.parse(row.retour_statut),
            statutRaison:
              row.retour_statut_raison === null ? null : RetourStatutRaison.parse(row.retour_statut_raison),
            envois: row.retour_envois,
            dateDemande: row.retour_date_demande,
            dateReponse: row.retour_date_reponse,
          },
  };
}

/** A demande to record, as insert is given it. */
interface NewDemande {
  clientId: string;
  id: string;
  record: DemandeRecord;
  payerAction: ScheduledPayerAction | undefined;
  /** The request's trace context, taken when it arrives: the statement runs in the first one's. */
  traceContext: Record<string, string>;
}

/**
 * Demandes are recorded as they arrive, by a statement that records every one arriving in the same turn of the
 * event loop (StatementBatcher): under load one statement and one commit serve many requests-to-pay, and each
 * is answered only once its own row is committed.
 */
export class SqlDemandeRepository implements DemandeRepository {
  private readonly inserts = new StatementBatcher(
    (demandes: readonly NewDemande[]) => this.insertAll(demandes),
    { maxBatchSize: 100 },
  );

  constructor(private readonly db: Pick<SqlDatabase, '$queryRaw'>) {}

  async insert(
    clientId: string,
    id: string,
    record: DemandeRecord,
    payerAction: ScheduledPayerAction | undefined,
  ): Promise<'inserted' | 'duplicate'> {
    const demande = { clientId, id, record, payerAction, traceContext: traceHeaders() };
    return (await this.inserts.write(demande)) ? 'inserted' : 'duplicate';
  }

  /**
   * One statement: each demande and its payer's decision, both rows or neither; no row for a used txId (within
   * a batch, the first demande with it is recorded). The arrays are unnested from sub-selects so that the
   * plan stays generic.
   */
  private async insertAll(demandes: readonly NewDemande[]): Promise<boolean[]> {
    const column = <T>(of: (demande: NewDemande) => T): T[] => demandes.map(of);
    const record = <T>(of: (record: DemandeRecord) => T): T[] =>
      demandes.map((demande) => of(demande.record));
    const inserted = await this.db.$queryRaw<{ id: string }[]>`
      WITH received AS (
        SELECT * FROM unnest(
          (SELECT ${column((d) => d.id)}::text[]), (SELECT ${column((d) => d.clientId)}::text[]),
          (SELECT ${record((r) => r.txId)}::text[]), (SELECT ${record((r) => JSON.stringify(r.request))}::jsonb[]),
          (SELECT ${record((r) => r.statut)}::text[]), (SELECT ${record((r) => r.statutRaison)}::text[]),
          (SELECT ${record((r) => r.payeurNom)}::text[]), (SELECT ${record((r) => r.payeurPays)}::text[]),
          (SELECT ${record((r) => r.end2endId)}::text[]), (SELECT ${record((r) => r.paiementEnd2endId)}::text[]),
          (SELECT ${record((r) => r.dateDemande)}::timestamptz[]),
          (SELECT ${record((r) => r.dateEnvoi)}::timestamptz[]),
          (SELECT ${record((r) => r.dateReponse)}::timestamptz[]),
          (SELECT ${record((r) => r.dateIrrevocabilite)}::timestamptz[]),
          (SELECT ${column((d) => d.payerAction?.action ?? null)}::text[]),
          (SELECT ${column((d) => d.payerAction?.dueAt ?? null)}::timestamptz[]),
          (SELECT ${column((d) => JSON.stringify(d.traceContext))}::jsonb[]))
          AS r (id, client_id, tx_id, request, statut, statut_raison, payeur_nom, payeur_pays, end2end_id,
                paiement_end2end_id, date_demande, date_envoi, date_reponse, date_irrevocabilite, action, due_at,
                trace_context)
      ), demande AS (
        INSERT INTO demandes (id, client_id, tx_id, request, statut, statut_raison, payeur_nom, payeur_pays,
          end2end_id, paiement_end2end_id, date_demande, date_envoi, date_reponse, date_irrevocabilite,
          trace_context)
        SELECT id, client_id, tx_id, request, statut, statut_raison, payeur_nom, payeur_pays, end2end_id,
               paiement_end2end_id, date_demande, date_envoi, date_reponse, date_irrevocabilite, trace_context
          FROM received
        ON CONFLICT DO NOTHING
        RETURNING id
      ), decision AS (
        INSERT INTO payer_decisions (demande_id, action, due_at)
        SELECT demande.id, received.action, received.due_at
          FROM demande JOIN received ON received.id = demande.id
         WHERE received.action IS NOT NULL
      )
      SELECT id FROM demande`;
    const recorded = new Set(inserted.map((row) => row.id));
    return demandes.map((demande) => recorded.has(demande.id));
  }

  async find(clientId: string, txId: string): Promise<DemandeRecord | null> {
    const [row] = await this.db.$queryRaw<DemandeRow[]>`
      SELECT id, client_id, tx_id, request, statut, statut_raison, payeur_nom, payeur_pays, end2end_id,
        paiement_end2end_id, date_demande, date_envoi, date_reponse, date_irrevocabilite, retour_statut,
        retour_statut_raison, retour_envois, retour_date_demande, retour_date_reponse
      FROM demandes WHERE client_id = ${clientId} AND tx_id = ${txId}`;
    return row ? toDemandeRecord(row) : null;
  }
}
