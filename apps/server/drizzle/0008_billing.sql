CREATE TABLE "billing_actions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "billing_actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ticket_id" integer,
	"user_id" integer,
	"system" text NOT NULL,
	"contract_id" text NOT NULL,
	"action" text NOT NULL,
	"ok" boolean NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"protocol" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_links" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"contact_id" integer NOT NULL,
	"system" text NOT NULL,
	"document" text NOT NULL,
	"contract_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_actions" ADD CONSTRAINT "billing_actions_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_actions" ADD CONSTRAINT "billing_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_links" ADD CONSTRAINT "billing_links_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_links" ADD CONSTRAINT "billing_links_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_actions_ticket_idx" ON "billing_actions" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_links_contact_idx" ON "billing_links" USING btree ("contact_id","created_at");