-- CreateTable
CREATE TABLE "webhooks" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "callback_url" TEXT NOT NULL,
    "alias" TEXT,
    "events" TEXT[],
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "deleted_at" TIMESTAMPTZ(6),

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "demandes" (
    "id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "tx_id" VARCHAR(35) NOT NULL,
    "request" JSONB NOT NULL,
    "statut" TEXT NOT NULL,
    "statut_raison" TEXT,
    "payeur_nom" TEXT,
    "payeur_pays" TEXT,
    "end2end_id" TEXT NOT NULL,
    "paiement_end2end_id" TEXT,
    "date_demande" TIMESTAMPTZ(6) NOT NULL,
    "date_envoi" TIMESTAMPTZ(6),
    "date_reponse" TIMESTAMPTZ(6),
    "date_irrevocabilite" TIMESTAMPTZ(6),

    CONSTRAINT "demandes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payer_decisions" (
    "demande_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(6) NOT NULL,
    "applied_at" TIMESTAMPTZ(6),

    CONSTRAINT "payer_decisions_pkey" PRIMARY KEY ("demande_id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" TEXT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "demande_id" TEXT NOT NULL,
    "ev_code" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(6) NOT NULL,
    "delivered_at" TIMESTAMPTZ(6),
    "abandoned_at" TIMESTAMPTZ(6),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhooks_client_id_idx" ON "webhooks"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "demandes_client_id_tx_id_key" ON "demandes"("client_id", "tx_id");

-- CreateIndex
CREATE INDEX "payer_decisions_due_idx" ON "payer_decisions"("applied_at", "due_at");

-- CreateIndex
CREATE INDEX "notifications_due_idx" ON "notifications"("delivered_at", "abandoned_at", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "payer_decisions" ADD CONSTRAINT "payer_decisions_demande_id_fkey" FOREIGN KEY ("demande_id") REFERENCES "demandes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_demande_id_fkey" FOREIGN KEY ("demande_id") REFERENCES "demandes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
