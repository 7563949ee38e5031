ALTER TABLE "billing_links" ADD COLUMN "city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_links" ADD COLUMN "pop" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "audience" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "cities" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "pops" jsonb DEFAULT '[]'::jsonb NOT NULL;