CREATE TABLE "ticket_agents" (
	"user_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"handled_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ticket_agents_user_id_ticket_id_pk" PRIMARY KEY("user_id","ticket_id")
);
--> statement-breakpoint
ALTER TABLE "ticket_agents" ADD CONSTRAINT "ticket_agents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_agents" ADD CONSTRAINT "ticket_agents_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written: ticket_agents follows ticket_history. The agent the ticket went to or was closed with (accept, reopen, transfer, handover, finish, autoClose) and the agent who passed it on (transfer, return) handled it at that moment; a later row moves the moment on.
CREATE FUNCTION ticket_agents_on_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.user_id IS NOT NULL AND NEW.reason IN ('accept', 'reopen', 'transfer', 'handover', 'finish', 'autoClose') THEN
    INSERT INTO ticket_agents (user_id, ticket_id, handled_at) VALUES (NEW.user_id, NEW.ticket_id, NEW.created_at)
      ON CONFLICT (user_id, ticket_id) DO UPDATE SET handled_at = greatest(ticket_agents.handled_at, EXCLUDED.handled_at);
  END IF;
  IF NEW.from_user_id IS NOT NULL AND NEW.from_user_id IS DISTINCT FROM NEW.user_id AND NEW.reason IN ('transfer', 'return') THEN
    INSERT INTO ticket_agents (user_id, ticket_id, handled_at) VALUES (NEW.from_user_id, NEW.ticket_id, NEW.created_at)
      ON CONFLICT (user_id, ticket_id) DO UPDATE SET handled_at = greatest(ticket_agents.handled_at, EXCLUDED.handled_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ticket_agents_history AFTER INSERT ON ticket_history FOR EACH ROW EXECUTE FUNCTION ticket_agents_on_history();
--> statement-breakpoint
-- hand-written: what the history written before this migration says (agents since deleted left out)
INSERT INTO ticket_agents (user_id, ticket_id, handled_at)
SELECT h.agent, h.ticket_id, max(h.created_at) FROM (
  SELECT user_id AS agent, ticket_id, created_at FROM ticket_history
    WHERE user_id IS NOT NULL AND reason IN ('accept', 'reopen', 'transfer', 'handover', 'finish', 'autoClose')
  UNION ALL
  SELECT from_user_id, ticket_id, created_at FROM ticket_history
    WHERE from_user_id IS NOT NULL AND from_user_id IS DISTINCT FROM user_id AND reason IN ('transfer', 'return')
) h
WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = h.agent) AND EXISTS (SELECT 1 FROM tickets t WHERE t.id = h.ticket_id)
GROUP BY h.agent, h.ticket_id;
