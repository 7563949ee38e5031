CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" bigint NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"chat" text NOT NULL,
	"priority" smallint NOT NULL,
	"wid" text NOT NULL,
	"payload" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"chat" text NOT NULL,
	"type" text NOT NULL,
	"event" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"singleton_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"from_queue_id" integer,
	"queue_id" integer,
	"from_user_id" integer,
	"user_id" integer,
	"actor" text NOT NULL,
	"actor_user_id" integer,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "simulator_chats" (
	"whatsapp_id" integer NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"refused" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulator_chats_whatsapp_id_number_pk" PRIMARY KEY("whatsapp_id","number")
);
--> statement-breakpoint
CREATE TABLE "simulator_messages" (
	"whatsapp_id" integer NOT NULL,
	"id" text NOT NULL,
	"chat" text NOT NULL,
	"from_me" boolean NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media_type" text DEFAULT 'chat' NOT NULL,
	"mimetype" text,
	"file_name" text,
	"media_file" text,
	"ack" smallint DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"quoted_id" text,
	"delivered" boolean DEFAULT false NOT NULL,
	"group_id" text,
	"sender_number" text,
	"sender_name" text,
	"seq" integer GENERATED ALWAYS AS IDENTITY (sequence name "simulator_messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulator_messages_whatsapp_id_id_pk" PRIMARY KEY("whatsapp_id","id")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"field" text NOT NULL,
	"old_value" text,
	"new_value" text,
	"actor_id" integer,
	"actor_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "send_interval_ms" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "send_jitter_ms" integer DEFAULT 1500 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "send_burst" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "source" text DEFAULT 'customer' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "send_error" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "last_message_id" bigint;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_history" ADD CONSTRAINT "ticket_history_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_pkey_idx" ON "idempotency_keys" USING btree ("scope","key");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_message_key" ON "outbox" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "outbox_next_idx" ON "outbox" USING btree ("whatsapp_id","priority","id") WHERE "outbox"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_chat_idx" ON "outbox" USING btree ("whatsapp_id","chat","id") WHERE "outbox"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "inbound_events_pending_idx" ON "inbound_events" USING btree ("id") WHERE "inbound_events"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "inbound_events_done_idx" ON "inbound_events" USING btree ("done_at") WHERE "inbound_events"."state" = 'done';--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at","id") WHERE "jobs"."state" in ('queued','running');--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_singleton_key" ON "jobs" USING btree ("singleton_key") WHERE "jobs"."state" in ('queued','running');--> statement-breakpoint
CREATE INDEX "jobs_state_idx" ON "jobs" USING btree ("state","updated_at");--> statement-breakpoint
CREATE INDEX "ticket_history_ticket_idx" ON "ticket_history" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "ticket_history_created_idx" ON "ticket_history" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "simulator_messages_chat_idx" ON "simulator_messages" USING btree ("whatsapp_id","chat","seq");--> statement-breakpoint
CREATE INDEX "simulator_messages_undelivered_idx" ON "simulator_messages" USING btree ("whatsapp_id","seq") WHERE not "simulator_messages"."from_me" and not "simulator_messages"."delivered";--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_send_error_idx" ON "messages" USING btree ("id") WHERE "messages"."send_error" is not null;--> statement-breakpoint
-- hand-written: existing outgoing messages get their source
UPDATE "messages" SET "source" = CASE WHEN "user_id" IS NOT NULL THEN 'agent' ELSE 'bot' END WHERE "from_me";
