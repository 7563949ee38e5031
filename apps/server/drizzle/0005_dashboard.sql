CREATE TABLE "ticket_cycles" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"history_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"queue_id" integer,
	"customer_at" timestamp with time zone,
	"reply_at" timestamp with time zone,
	"reply_user_id" integer,
	"reply_queue_id" integer,
	"ended_at" timestamp with time zone,
	"end_user_id" integer,
	"end_queue_id" integer
);
--> statement-breakpoint
ALTER TABLE "ticket_cycles" ADD CONSTRAINT "ticket_cycles_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_cycles_started_idx" ON "ticket_cycles" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "ticket_cycles_open_idx" ON "ticket_cycles" USING btree ("ticket_id") WHERE "ticket_cycles"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "tickets_created_idx" ON "tickets" USING btree ("created_at");--> statement-breakpoint
-- hand-written: ticket_cycles follows ticket_history (a create or a customer's reopening starts a cycle, the first close ends it) and messages (the cycle's first customer message, then its first human reply). A cycle started in the same transaction as its messages reads them when it is created. Locks: the ticket row (no key update) before the cycle row, the order of the transitions, so the two never deadlock; a message that changes nothing locks nothing.
CREATE FUNCTION ticket_cycles_on_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cust timestamptz;
  rep_at timestamptz;
  rep_user integer;
BEGIN
  IF NEW.reason IN ('create', 'customer') THEN
    SELECT min(m.created_at) INTO cust FROM messages m
      WHERE m.ticket_id = NEW.ticket_id AND NOT m.from_me AND m.created_at >= NEW.created_at;
    IF cust IS NOT NULL THEN
      SELECT m.created_at, m.user_id INTO rep_at, rep_user FROM messages m
        WHERE m.ticket_id = NEW.ticket_id AND m.from_me AND m.source IN ('agent', 'phone') AND m.created_at >= cust
        ORDER BY m.created_at, m.id LIMIT 1;
    END IF;
    INSERT INTO ticket_cycles (ticket_id, history_id, reason, started_at, queue_id, customer_at, reply_at, reply_user_id, reply_queue_id)
      VALUES (NEW.ticket_id, NEW.id, NEW.reason, NEW.created_at, NEW.queue_id, cust, rep_at, rep_user,
              CASE WHEN rep_at IS NOT NULL THEN NEW.queue_id END);
  ELSIF NEW.to_status = 'closed' AND NEW.from_status IS DISTINCT FROM 'closed' THEN
    UPDATE ticket_cycles SET ended_at = NEW.created_at, end_user_id = NEW.user_id, end_queue_id = NEW.queue_id
      WHERE ticket_id = NEW.ticket_id AND ended_at IS NULL;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION ticket_cycles_on_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT NEW.from_me THEN
    IF EXISTS (SELECT 1 FROM ticket_cycles WHERE ticket_id = NEW.ticket_id AND ended_at IS NULL AND customer_at IS NULL) THEN
      PERFORM 1 FROM tickets WHERE id = NEW.ticket_id FOR NO KEY UPDATE;
      UPDATE ticket_cycles SET customer_at = NEW.created_at
        WHERE ticket_id = NEW.ticket_id AND ended_at IS NULL AND customer_at IS NULL AND started_at <= NEW.created_at;
    END IF;
  ELSIF NEW.source IN ('agent', 'phone') THEN
    IF EXISTS (SELECT 1 FROM ticket_cycles WHERE ticket_id = NEW.ticket_id AND ended_at IS NULL AND customer_at IS NOT NULL AND reply_at IS NULL) THEN
      PERFORM 1 FROM tickets WHERE id = NEW.ticket_id FOR NO KEY UPDATE;
      UPDATE ticket_cycles SET reply_at = NEW.created_at, reply_user_id = NEW.user_id,
             reply_queue_id = (SELECT queue_id FROM tickets WHERE id = NEW.ticket_id)
        WHERE ticket_id = NEW.ticket_id AND ended_at IS NULL AND customer_at IS NOT NULL AND reply_at IS NULL AND customer_at <= NEW.created_at;
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ticket_cycles_history AFTER INSERT ON ticket_history FOR EACH ROW EXECUTE FUNCTION ticket_cycles_on_history();
--> statement-breakpoint
CREATE TRIGGER ticket_cycles_message AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION ticket_cycles_on_message();
--> statement-breakpoint
-- hand-written: the cycles of the history written before this migration
INSERT INTO ticket_cycles (ticket_id, history_id, reason, started_at, queue_id, customer_at, reply_at, reply_user_id, reply_queue_id, ended_at, end_user_id, end_queue_id)
SELECT c.ticket_id, c.id, c.reason, c.created_at, c.queue_id, fc.at, fr.at, fr.user_id,
       (SELECT h.queue_id FROM ticket_history h WHERE h.ticket_id = c.ticket_id AND h.created_at <= fr.at ORDER BY h.created_at DESC, h.id DESC LIMIT 1),
       e.created_at, e.user_id, e.queue_id
FROM ticket_history c
LEFT JOIN LATERAL (
  SELECT e.created_at, e.user_id, e.queue_id FROM ticket_history e
  WHERE e.ticket_id = c.ticket_id AND e.to_status = 'closed' AND e.from_status IS DISTINCT FROM 'closed'
    AND (e.created_at > c.created_at OR (e.created_at = c.created_at AND e.id > c.id))
  ORDER BY e.created_at, e.id LIMIT 1) e ON true
LEFT JOIN LATERAL (
  SELECT min(m.created_at) AS at FROM messages m
  WHERE m.ticket_id = c.ticket_id AND NOT m.from_me AND m.created_at >= c.created_at
    AND (e.created_at IS NULL OR m.created_at <= e.created_at)) fc ON true
LEFT JOIN LATERAL (
  SELECT m.created_at AS at, m.user_id FROM messages m
  WHERE m.ticket_id = c.ticket_id AND m.from_me AND m.source IN ('agent', 'phone')
    AND m.created_at >= fc.at AND (e.created_at IS NULL OR m.created_at <= e.created_at)
  ORDER BY m.created_at, m.id LIMIT 1) fr ON true
WHERE c.reason IN ('create', 'customer');
