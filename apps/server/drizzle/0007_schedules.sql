CREATE TABLE "schedules" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" integer,
	"contact_id" integer,
	"whatsapp_id" integer,
	"user_id" integer,
	"customer_number" text DEFAULT '' NOT NULL,
	"message" text NOT NULL,
	"when" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"cancel_on_reply" boolean DEFAULT true NOT NULL,
	"sign" boolean DEFAULT true NOT NULL,
	"message_id" bigint,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedules_when_idx" ON "schedules" USING btree ("when" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "schedules_ticket_idx" ON "schedules" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "schedules_pending_idx" ON "schedules" USING btree ("when") WHERE "schedules"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "schedules_pending_contact_idx" ON "schedules" USING btree ("contact_id") WHERE "schedules"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "schedules_message_idx" ON "schedules" USING btree ("message_id");