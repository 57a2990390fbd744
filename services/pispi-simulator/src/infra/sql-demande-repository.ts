import {
  DemandePaiementRequest,
  DemandePaiementStatut,
  DemandePaiementStatutRaison,
  RetourStatut,
  RetourStatutRaison,
} from '@sika/pispi';
import { PreparedQuery, StatementBatcher, traceHeaders } from '@sika/platform';
import type { Kysely, Selectable } from 'kysely';

import type { DemandeRepository } from '../app/ports';
import type { DemandeRecord, ScheduledPayerAction } from '../domain/demande';
import type { DB } from '../generated/database';
import { CLIENT_REQUEST_COLUMNS } from './client-request-columns';
import { unnestedRows } from './unnested-rows';

/** The columns a demande is received with (`client_id` for the worker, which serves every client). */
const RECEIVED_DEMANDE_COLUMNS = [
  ...CLIENT_REQUEST_COLUMNS,
  'payeur_nom',
  'payeur_pays',
  'end2end_id',
  'paiement_end2end_id',
  'date_demande',
  'date_envoi',
  'date_reponse',
  'date_irrevocabilite',
] as const;

/** The columns of a demande its record is made of: as received, and the return of its payment. */
const DEMANDE_COLUMNS = [
  ...RECEIVED_DEMANDE_COLUMNS,
  'retour_statut',
  'retour_statut_raison',
  'retour_envois',
  'retour_date_demande',
  'retour_date_reponse',
] as const;

/** The same columns of `demandes as d`, for a query that joins it. */
export const JOINED_DEMANDE_COLUMNS = DEMANDE_COLUMNS.map((column) => `d.${column}` as const);

/** A `demandes` row as its queries select it. */
export type DemandeRow = Pick<Selectable<DB['demandes']>, (typeof DEMANDE_COLUMNS)[number]>;

/** The demandes' columns that make their records, to be filtered (and locked) by the caller. */
export function selectDemandes(db: Kysely<DB>) {
  return db.selectFrom('demandes').select(DEMANDE_COLUMNS);
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

/** What recording a received demande writes: its columns, and the trace its callbacks continue. */
const RECORDED_COLUMNS = [...RECEIVED_DEMANDE_COLUMNS, 'trace_context'] as const;

/** A demande to record, as insert is given it. */
interface NewDemande {
  clientId: string;
  id: string;
  record: DemandeRecord;
  payerAction: ScheduledPayerAction | undefined;
  /** The request's trace context, taken when it arrives: the statement runs in the first one's. */
  traceContext: Record<string, string>;
}

/** The demandes insertAll records, one array per column. */
function receivedColumns(demandes: readonly NewDemande[]) {
  const column = <T>(of: (demande: NewDemande) => T): T[] => demandes.map(of);
  const record = <T>(of: (record: DemandeRecord) => T): T[] => demandes.map((demande) => of(demande.record));
  return {
    id: column((d) => d.id),
    clientId: column((d) => d.clientId),
    txId: record((r) => r.txId),
    request: record((r) => JSON.stringify(r.request)),
    statut: record((r) => r.statut),
    statutRaison: record((r) => r.statutRaison),
    payeurNom: record((r) => r.payeurNom),
    payeurPays: record((r) => r.payeurPays),
    end2endId: record((r) => r.end2endId),
    paiementEnd2endId: record((r) => r.paiementEnd2endId),
    dateDemande: record((r) => r.dateDemande),
    dateEnvoi: record((r) => r.dateEnvoi),
    dateReponse: record((r) => r.dateReponse),
    dateIrrevocabilite: record((r) => r.dateIrrevocabilite),
    action: column((d) => d.payerAction?.action ?? null),
    dueAt: column((d) => d.payerAction?.dueAt ?? null),
    traceContext: column((d) => JSON.stringify(d.traceContext)),
  };
}

type ReceivedColumns = ReturnType<typeof receivedColumns>;

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

  /** insertAll's statement, compiled once (PreparedQuery): it runs for every demande received. */
  private readonly insertStatement = new PreparedQuery<ReceivedColumns, { id: string }>((_param, values) =>
    this.insertStatementOf(values),
  );

  constructor(private readonly db: Kysely<DB>) {}

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
   * a batch, the first demande with it is recorded).
   */
  private async insertAll(demandes: readonly NewDemande[]): Promise<boolean[]> {
    const inserted = await this.insertStatement.execute(this.db, receivedColumns(demandes));
    const recorded = new Set(inserted.map((row) => row.id));
    return demandes.map((demande) => recorded.has(demande.id));
  }

  /**
   * insertAll's one statement, on the arrays of its demandes (ReceivedColumns). The arrays are unnested from
   * sub-selects so that the plan stays generic.
   */
  private insertStatementOf(values: ReceivedColumns) {
    return this.db
      .with('received', (db) =>
        db
          .selectFrom(
            unnestedRows('r', {
              id: { type: 'text', values: values.id },
              client_id: { type: 'text', values: values.clientId },
              tx_id: { type: 'text', values: values.txId },
              request: { type: 'jsonb', values: values.request },
              statut: { type: 'text', values: values.statut },
              statut_raison: { type: 'text', values: values.statutRaison },
              payeur_nom: { type: 'text', values: values.payeurNom },
              payeur_pays: { type: 'text', values: values.payeurPays },
              end2end_id: { type: 'text', values: values.end2endId },
              paiement_end2end_id: { type: 'text', values: values.paiementEnd2endId },
              date_demande: { type: 'timestamptz', values: values.dateDemande },
              date_envoi: { type: 'timestamptz', values: values.dateEnvoi },
              date_reponse: { type: 'timestamptz', values: values.dateReponse },
              date_irrevocabilite: { type: 'timestamptz', values: values.dateIrrevocabilite },
              action: { type: 'text', values: values.action },
              due_at: { type: 'timestamptz', values: values.dueAt },
              trace_context: { type: 'jsonb', values: values.traceContext },
            }),
          )
          .selectAll(),
      )
      .with('demande', (db) =>
        db
          .insertInto('demandes')
          .columns(RECORDED_COLUMNS)
          .expression(db.selectFrom('received').select(RECORDED_COLUMNS))
          .onConflict((conflict) => conflict.doNothing())
          .returning('id'),
      )
      .with('decision', (db) =>
        db
          .insertInto('payer_decisions')
          .columns(['demande_id', 'action', 'due_at'])
          .expression(
            db
              .selectFrom('demande')
              .innerJoin('received', 'received.id', 'demande.id')
              .select(['demande.id', 'received.action', 'received.due_at'])
              .where('received.action', 'is not', null),
          ),
      )
      .selectFrom('demande')
      .select('id');
  }

  async find(clientId: string, txId: string): Promise<DemandeRecord | null> {
    const row = await selectDemandes(this.db)
      .where('client_id', '=', clientId)
      .where('tx_id', '=', txId)
      .executeTakeFirst();
    return row ? toDemandeRecord(row) : null;
  }
}
