-- Hand-written: scheme events recorded before this kept the payer's or payee's name (`client`) and alias
-- (`alias`). Sika keeps no customer's name: both go, from the stored events as from every new one.
UPDATE "scheme_callback_events" SET "event" = "event" - 'client' - 'alias' WHERE "event" ?| ARRAY['client', 'alias'];
