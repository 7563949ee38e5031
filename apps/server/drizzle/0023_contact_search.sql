DROP INDEX "contacts_email_trgm";--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "search" text GENERATED ALWAYS AS (lower(name) || chr(10) || lower(email)) STORED;--> statement-breakpoint
CREATE INDEX "contacts_search_trgm" ON "contacts" USING gin ("search" gin_trgm_ops);