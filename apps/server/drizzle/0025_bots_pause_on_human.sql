-- hand-written: the bots' pause of a ticket, in one place: Typebot's "stop" calls it (modules/bots/state.ts pauseBots), and a human's message in a ticket (an agent in Balcão, or someone on the paired phone) runs it by a trigger, in the transaction that stores the message, whatever writes it (before: a statement of its own after the commit, on every agent send). It takes the ticket's bot_sessions row after the writer's own ticket row, the order of every other writer of both
CREATE FUNCTION bot_sessions_pause(ticket integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO bot_sessions (ticket_id, paused_at) VALUES (ticket, now())
    ON CONFLICT (ticket_id) DO UPDATE SET paused_at = coalesce(bot_sessions.paused_at, now()), step = NULL, session_id = NULL,
      data = '{}'::jsonb, updated_at = now();
$$;
--> statement-breakpoint
CREATE FUNCTION bot_sessions_pause_on_human() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bot_sessions_pause(NEW.ticket_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER bot_sessions_pause AFTER INSERT ON messages FOR EACH ROW
  WHEN (NEW.from_me AND NEW.source IN ('agent', 'phone') AND NEW.ticket_id IS NOT NULL)
  EXECUTE FUNCTION bot_sessions_pause_on_human();
