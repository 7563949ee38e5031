ALTER TABLE "schedules" ALTER COLUMN "cancel_on_reply" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "disparos" ADD COLUMN "name" text DEFAULT '' NOT NULL;