-- DropIndex
DROP INDEX "fund_returns_end2end_id_idx";

-- AlterTable
ALTER TABLE "fund_returns" DROP CONSTRAINT "fund_returns_pkey",
ADD CONSTRAINT "fund_returns_pkey" PRIMARY KEY ("livemode", "end2end_id");
