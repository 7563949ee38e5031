CREATE TABLE "cluster_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cluster_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payload" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cluster_presence" (
	"process_id" text PRIMARY KEY NOT NULL,
	"user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cluster_slots" (
	"key" text NOT NULL,
	"token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cluster_slots_key_token_pk" PRIMARY KEY("key","token")
);
--> statement-breakpoint
CREATE INDEX "cluster_counters_expires_idx" ON "cluster_counters" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "cluster_events_created_idx" ON "cluster_events" USING btree ("created_at");