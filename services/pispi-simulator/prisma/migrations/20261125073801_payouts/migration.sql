-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "virement_id" TEXT,
ALTER COLUMN "demande_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "virements" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "tx_id" VARCHAR(35) NOT NULL,
    "request" JSONB NOT NULL,
    "statut" TEXT NOT NULL,
    "statut_raison" TEXT,
    "paye_nom" TEXT,
    "paye_pays" TEXT,
    "end2end_id" TEXT NOT NULL,
    "date_demande" TIMESTAMPTZ(6) NOT NULL,
    "date_confirmation" TIMESTAMPTZ(6),
    "date_envoi" TIMESTAMPTZ(6),
    "date_reponse" TIMESTAMPTZ(6),
    "date_irrevocabilite" TIMESTAMPTZ(6),
    "outcome_due_at" TIMESTAMPTZ(6),

    CONSTRAINT "virements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "virements_outcome_due_idx" ON "virements"("outcome_due_at");

-- CreateIndex
CREATE UNIQUE INDEX "virements_client_id_tx_id_key" ON "virements"("client_id", "tx_id");

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_virement_id_fkey" FOREIGN KEY ("virement_id") REFERENCES "virements"("id") ON DELETE CASCADE ON UPDATE CASCADE;
