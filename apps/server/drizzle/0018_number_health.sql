CREATE TABLE "connection_daily_sends" (
	"whatsapp_id" integer NOT NULL,
	"day" text NOT NULL,
	"unsolicited" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "connection_daily_sends_whatsapp_id_day_pk" PRIMARY KEY("whatsapp_id","day")
);
--> statement-breakpoint
CREATE TABLE "connection_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connection_health" (
	"whatsapp_id" integer PRIMARY KEY NOT NULL,
	"backup_whatsapp_id" integer,
	"daily_cap" integer DEFAULT 1000 NOT NULL,
	"warmup_enabled" boolean DEFAULT true NOT NULL,
	"paired_at" timestamp with time zone,
	"paused" boolean DEFAULT false NOT NULL,
	"paused_reason" text DEFAULT '' NOT NULL,
	"paused_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connection_daily_sends" ADD CONSTRAINT "connection_daily_sends_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_events" ADD CONSTRAINT "connection_events_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_health" ADD CONSTRAINT "connection_health_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_health" ADD CONSTRAINT "connection_health_backup_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("backup_whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connection_events_kind_idx" ON "connection_events" USING btree ("whatsapp_id","kind","at");