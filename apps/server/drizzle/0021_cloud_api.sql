ALTER TABLE "whatsapps" ADD COLUMN "cloud_phone_number_id" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_business_account_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_access_token" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_app_secret" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_verify_token" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_default_template" jsonb;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_tier_limit" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_cloud_phone_key" ON "whatsapps" USING btree ("cloud_phone_number_id");