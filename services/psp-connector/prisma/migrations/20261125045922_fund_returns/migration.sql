-- AlterTable
ALTER TABLE "scheme_callback_events" DROP CONSTRAINT "scheme_callback_events_pkey",
ADD COLUMN     "occurrence" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "scheme_callback_events_pkey" PRIMARY KEY ("mode", "ev_code", "end2end_id", "occurrence");

-- CreateTable
CREATE TABLE "fund_returns" (
    "tx_id" VARCHAR(35) NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "end2end_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(6) NOT NULL,
    "last_reason" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "fund_returns_pkey" PRIMARY KEY ("tx_id")
);

-- CreateIndex
CREATE INDEX "fund_returns_due_idx" ON "fund_returns"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "fund_returns_end2end_id_idx" ON "fund_returns"("end2end_id");
