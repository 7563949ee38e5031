CREATE TABLE "ticket_count_changes" (
	"status" text NOT NULL,
	"queue_id" integer,
	"user_id" integer,
	"is_group" boolean NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_counts" (
	"status" text NOT NULL,
	"queue_id" integer,
	"user_id" integer,
	"is_group" boolean NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_counts_key" ON "ticket_counts" USING btree ("status",coalesce("queue_id", 0),coalesce("user_id", 0),"is_group");--> statement-breakpoint
-- hand-written: every insert and delete of a ticket, and every change of its status, queue, agent or kind, appends its -1 / +1 in the writer's transaction (modules/tickets/counts.ts folds them); a truncate empties both
CREATE FUNCTION ticket_counts_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ticket_count_changes (status, queue_id, user_id, is_group, n) VALUES (OLD.status, OLD.queue_id, OLD.user_id, OLD.is_group, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ticket_count_changes (status, queue_id, user_id, is_group, n) VALUES (NEW.status, NEW.queue_id, NEW.user_id, NEW.is_group, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION ticket_counts_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_count_changes;
  DELETE FROM ticket_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ticket_counts_insert_delete AFTER INSERT OR DELETE ON tickets FOR EACH ROW EXECUTE FUNCTION ticket_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER ticket_counts_update AFTER UPDATE OF status, queue_id, user_id, is_group ON tickets FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.queue_id IS DISTINCT FROM NEW.queue_id
        OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.is_group IS DISTINCT FROM NEW.is_group)
  EXECUTE FUNCTION ticket_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER ticket_counts_truncate AFTER TRUNCATE ON tickets FOR EACH STATEMENT EXECUTE FUNCTION ticket_counts_on_truncate();
--> statement-breakpoint
-- hand-written: the tickets written before this migration (the triggers above already hold off writers until it commits)
INSERT INTO ticket_counts (status, queue_id, user_id, is_group, n)
  SELECT status, queue_id, user_id, is_group, count(*)::int FROM tickets GROUP BY status, queue_id, user_id, is_group;
