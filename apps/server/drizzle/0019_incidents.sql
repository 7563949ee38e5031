CREATE TABLE "incident_contacts" (
	"incident_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"whatsapp_id" integer,
	"ticket_id" integer,
	"notice_message_id" bigint,
	"normal_state" text DEFAULT 'none' NOT NULL,
	"normal_message_id" bigint,
	"via" text DEFAULT 'message' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incident_contacts_incident_id_contact_id_pk" PRIMARY KEY("incident_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "incident_tickets" (
	"incident_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incident_tickets_incident_id_ticket_id_pk" PRIMARY KEY("incident_id","ticket_id")
);
--> statement-breakpoint
CREATE TABLE "incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"area" text DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expected_at" timestamp with time zone,
	"status" text DEFAULT 'open' NOT NULL,
	"close_message" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"closed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "queue_position_notices" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"told_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "position_notice_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "position_notice_minutes" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "incident_contacts" ADD CONSTRAINT "incident_contacts_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_contacts" ADD CONSTRAINT "incident_contacts_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_contacts" ADD CONSTRAINT "incident_contacts_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_tickets" ADD CONSTRAINT "incident_tickets_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_tickets" ADD CONSTRAINT "incident_tickets_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_position_notices" ADD CONSTRAINT "queue_position_notices_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incident_contacts_pending_idx" ON "incident_contacts" USING btree ("whatsapp_id") WHERE "incident_contacts"."normal_state" = 'pending';--> statement-breakpoint
CREATE INDEX "incident_tickets_ticket_idx" ON "incident_tickets" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "incidents_open_idx" ON "incidents" USING btree ("created_at") WHERE "incidents"."status" = 'open';