-- AlterTable
ALTER TABLE "demandes" ADD COLUMN     "retour_date_demande" TIMESTAMPTZ(6),
ADD COLUMN     "retour_date_reponse" TIMESTAMPTZ(6),
ADD COLUMN     "retour_envois" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "retour_statut" TEXT,
ADD COLUMN     "retour_statut_raison" TEXT;

-- CreateIndex
CREATE INDEX "demandes_client_id_paiement_end2end_id_idx" ON "demandes"("client_id", "paiement_end2end_id");
