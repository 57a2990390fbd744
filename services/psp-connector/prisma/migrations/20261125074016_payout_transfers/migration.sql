-- CreateTable
CREATE TABLE "payout_transfers" (
    "payout_id" VARCHAR(35) NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "payee_alias" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "reason_code" TEXT,
    "end2end_id" TEXT,
    "next_attempt_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "payout_transfers_pkey" PRIMARY KEY ("payout_id")
);

-- CreateIndex
CREATE INDEX "payout_transfers_due_idx" ON "payout_transfers"("status", "next_attempt_at");
