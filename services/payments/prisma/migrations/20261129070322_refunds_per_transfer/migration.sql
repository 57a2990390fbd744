-- Money owed back is recorded per transfer (its end-to-end id), not once per attempt: an attempt paid twice
-- owes its second transfer back too.
ALTER TABLE "payment_attempts" ADD COLUMN "refunds" JSONB NOT NULL DEFAULT '[]';

-- An attempt's refund recorded before: its transfer is the attempt's end-to-end id when it has one (a
-- duplicate, a payment after closure), else its tx_id (a wrong amount, whose transfer was not kept here).
UPDATE "payment_attempts"
   SET "refunds" = jsonb_build_array(jsonb_build_object(
         'end_to_end_id', coalesce("end_to_end_id", "tx_id"),
         'status', "refund_status",
         'duplicate', "duplicate"))
 WHERE "refund_status" IS NOT NULL;

ALTER TABLE "payment_attempts" DROP COLUMN "refund_status";
