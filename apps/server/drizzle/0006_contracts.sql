CREATE TABLE "contract_evidence" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_id" bigint NOT NULL,
	"event" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"data" text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_templates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"titulo" text NOT NULL,
	"corpo" text NOT NULL,
	"padrao" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"contract_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"cpf_tries" integer DEFAULT 0 NOT NULL,
	"first_view_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" integer,
	"user_id" integer,
	"atendente" text DEFAULT '' NOT NULL,
	"template_id" bigint,
	"template_version" integer DEFAULT 1 NOT NULL,
	"titulo" text NOT NULL,
	"texto" text NOT NULL,
	"nome" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"cpf" text NOT NULL,
	"link_base" text DEFAULT '' NOT NULL,
	"campos" text DEFAULT '{}' NOT NULL,
	"telefone" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'Nao assinado' NOT NULL,
	"file_key" text,
	"file_sha256" text,
	"signed_key" text,
	"signed_sha256" text,
	"sent_message_id" bigint,
	"sent_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"mailed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_evidence" ADD CONSTRAINT "contract_evidence_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_tokens" ADD CONSTRAINT "contract_tokens_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_template_id_contract_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."contract_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_sent_message_id_messages_id_fk" FOREIGN KEY ("sent_message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_evidence_contract_idx" ON "contract_evidence" USING btree ("contract_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_templates_one_default" ON "contract_templates" USING btree ("padrao") WHERE "contract_templates"."padrao";--> statement-breakpoint
CREATE INDEX "contracts_created_idx" ON "contracts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "contracts_ticket_idx" ON "contracts" USING btree ("ticket_id");