CREATE TABLE "contact_opt_outs" (
	"contact_id" integer PRIMARY KEY NOT NULL,
	"word" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disparo_counts" (
	"whatsapp_id" integer NOT NULL,
	"status" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "disparo_counts_whatsapp_id_status_pk" PRIMARY KEY("whatsapp_id","status")
);
--> statement-breakpoint
CREATE TABLE "disparo_settings" (
	"whatsapp_id" integer PRIMARY KEY NOT NULL,
	"interval_min_ms" integer DEFAULT 8000 NOT NULL,
	"interval_max_ms" integer DEFAULT 15000 NOT NULL,
	"pause_every" integer DEFAULT 20 NOT NULL,
	"pause_min_ms" integer DEFAULT 180000 NOT NULL,
	"pause_max_ms" integer DEFAULT 360000 NOT NULL,
	"daily_cap" integer DEFAULT 500 NOT NULL,
	"window_start" text DEFAULT '' NOT NULL,
	"window_end" text DEFAULT '' NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"paused_reason" text DEFAULT '' NOT NULL,
	"fail_streak" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone,
	"day" text DEFAULT '' NOT NULL,
	"day_count" integer DEFAULT 0 NOT NULL,
	"streak" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disparos" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"number" text NOT NULL,
	"contact_id" integer,
	"message" text DEFAULT '' NOT NULL,
	"rendered" text,
	"url" text DEFAULT '' NOT NULL,
	"mimetype" text DEFAULT '' NOT NULL,
	"media_key" text,
	"status" text DEFAULT 'a enviar' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"message_id" bigint,
	"datetime" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"batch_id" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_opt_outs" ADD CONSTRAINT "contact_opt_outs_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disparo_settings" ADD CONSTRAINT "disparo_settings_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disparos" ADD CONSTRAINT "disparos_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disparos" ADD CONSTRAINT "disparos_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disparos" ADD CONSTRAINT "disparos_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disparos_datetime_idx" ON "disparos" USING btree ("datetime" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "disparos_status_datetime_idx" ON "disparos" USING btree ("status","datetime" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "disparos_due_idx" ON "disparos" USING btree ("whatsapp_id","datetime","id") WHERE "disparos"."status" = 'a enviar';--> statement-breakpoint
CREATE INDEX "disparos_sending_idx" ON "disparos" USING btree ("message_id") WHERE "disparos"."status" = 'enviando';--> statement-breakpoint
CREATE INDEX "disparos_number_idx" ON "disparos" USING btree ("number") WHERE "disparos"."status" = 'a enviar';--> statement-breakpoint
-- hand-written: disparo_counts follows the rows of disparos (per connection and status), one statement trigger per kind of change; counter rows are touched in (whatsapp_id, status) order so concurrent changes never deadlock
CREATE FUNCTION disparo_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO disparo_counts (whatsapp_id, status, n)
    SELECT whatsapp_id, status, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (whatsapp_id, status) DO UPDATE SET n = disparo_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION disparo_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO disparo_counts (whatsapp_id, status, n)
    SELECT whatsapp_id, status, -count(*) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (whatsapp_id, status) DO UPDATE SET n = disparo_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION disparo_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO disparo_counts (whatsapp_id, status, n)
    SELECT whatsapp_id, status, sum(k)::bigint FROM (
      SELECT whatsapp_id, status, count(*) AS k FROM new_rows GROUP BY 1, 2
      UNION ALL
      SELECT whatsapp_id, status, -count(*) FROM old_rows GROUP BY 1, 2
    ) d GROUP BY 1, 2 HAVING sum(k) <> 0 ORDER BY 1, 2
    ON CONFLICT (whatsapp_id, status) DO UPDATE SET n = disparo_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER disparos_counts_insert AFTER INSERT ON disparos REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION disparo_counts_insert();
--> statement-breakpoint
CREATE TRIGGER disparos_counts_update AFTER UPDATE ON disparos REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION disparo_counts_update();
--> statement-breakpoint
CREATE TRIGGER disparos_counts_delete AFTER DELETE ON disparos REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION disparo_counts_delete();
