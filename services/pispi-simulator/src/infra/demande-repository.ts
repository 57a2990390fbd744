import {
  DemandePaiementRequest,
  DemandePaiementStatut,
  DemandePaiementStatutRaison,
  RetourStatut,
  RetourStatutRaison,
} from '@sika/pispi';
import type { SqlDatabase } from '@sika/platform';

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

export class SqlDemandeRepository implements DemandeRepository {
  constructor(private readonly db: SqlDatabase) {}

  async insert(
    clientId: string,
    id: string,
    record: DemandeRecord,
    payerAction: ScheduledPayerAction | undefined,
  ): Promise<'inserted' | 'duplicate'> {
    // One statement: the demande and its payer's decision, both rows or neither; no row for a used txId.
    const inserted = await this.db.$queryRaw<{ id: string }[]>`
      WITH demande AS (
        INSERT INTO demandes (id, client_id, tx_id, request, statut, statut_raison, payeur_nom, payeur_pays,
          end2end_id, paiement_end2end_id, date_demande, date_envoi, date_reponse, date_irrevocabilite)
        VALUES (${id}, ${clientId}, ${record.txId}, ${JSON.stringify(record.request)}::jsonb, ${record.statut},
          ${record.statutRaison}, ${record.payeurNom}, ${record.payeurPays}, ${record.end2endId},
          ${record.paiementEnd2endId}, ${record.dateDemande}, ${record.dateEnvoi}, ${record.dateReponse},
          ${record.dateIrrevocabilite})
        ON CONFLICT DO NOTHING
        RETURNING id
      ), decision AS (
        INSERT INTO payer_decisions (demande_id, action, due_at)
        SELECT demande.id, ${payerAction?.action ?? null}::text, ${payerAction?.dueAt ?? null}::timestamptz
          FROM demande WHERE ${payerAction?.action ?? null}::text IS NOT NULL
      )
      SELECT id FROM demande`;
    return inserted.length === 1 ? 'inserted' : 'duplicate';
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
