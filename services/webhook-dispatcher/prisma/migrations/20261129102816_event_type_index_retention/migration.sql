-- CreateIndex
CREATE INDEX "events_merchant_type_created_idx" ON "events"("merchant_id", "livemode", "type", "created_at" DESC, "id" DESC);

-- Hand-written: the events API promises every event for at least 30 days (the OpenAPI document's
-- x-sika-decisions, "Event retention"), so no role may delete a younger one, whatever code runs.
CREATE FUNCTION "refuse_recent_event_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD."created_at" > now() - interval '30 days' THEN
        RAISE EXCEPTION 'events are kept 30 days: DELETE of % refused', OLD."id"
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
END;
$$;

CREATE TRIGGER "events_retained" BEFORE DELETE ON "events"
    FOR EACH ROW EXECUTE FUNCTION "refuse_recent_event_delete"();
