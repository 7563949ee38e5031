import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { messages } from "./messages.js";
import { tickets } from "./tickets.js";
import { users } from "./users.js";

/** Contract templates: a title and a body with `{variables}`; one is the default. */
export const contractTemplates = pgTable(
  "contract_templates",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    titulo: text("titulo").notNull(),
    corpo: text("corpo").notNull(),
    padrao: boolean("padrao").notNull().default(false),
    /** bumped on every change: the contract records which version it was made from */
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("contract_templates_one_default").on(t.padrao).where(sql`${t.padrao}`)],
);

/**
 * A contract sent from a ticket. 'Nao assinado' until the customer signs on the public page;
 * `fileKey` is the generated PDF (set by the generate job), `signedKey` the signed one with the
 * evidence page. Files live under DATA_DIR/contracts, never on a public path.
 */
export const contracts = pgTable(
  "contracts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** the agent's name when sent (kept when the user is deleted) */
    atendente: text("atendente").notNull().default(""),
    templateId: bigint("template_id", { mode: "number" }).references(() => contractTemplates.id, { onDelete: "set null" }),
    templateVersion: integer("template_version").notNull().default(1),
    titulo: text("titulo").notNull(),
    /** the text of the contract as filled (what the PDF prints and the phone view shows) */
    texto: text("texto").notNull(),
    nome: text("nome").notNull(),
    email: text("email").notNull().default(""),
    /** digits only */
    cpf: text("cpf").notNull(),
    /** the origin the signing link starts with (setting urlContrato, or the sender's own address) */
    linkBase: text("link_base").notNull().default(""),
    /** the values the agent filled (endereco, plano, valor…), JSON */
    campos: text("campos").notNull().default("{}"),
    /** the WhatsApp number (or LID) the link went to */
    telefone: text("telefone").notNull().default(""),
    status: text("status", { enum: ["Nao assinado", "Assinado"] })
      .notNull()
      .default("Nao assinado"),
    fileKey: text("file_key"),
    fileSha256: text("file_sha256"),
    signedKey: text("signed_key"),
    signedSha256: text("signed_sha256"),
    /** the message with the link (set by the generate job, in the transaction that queued it) */
    sentMessageId: bigint("sent_message_id", { mode: "number" }).references(() => messages.id, { onDelete: "set null" }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    signedAt: timestamp("signed_at", { withTimezone: true }),
    /** when the signed PDF was e-mailed (the mail job skips a contract already mailed) */
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("contracts_created_idx").on(t.createdAt.desc(), t.id.desc()), index("contracts_ticket_idx").on(t.ticketId)],
);

/** Signing links: the token is random and only its SHA-256 is stored; single use, 7 days, locked after 5 wrong CPFs. */
export const contractTokens = pgTable("contract_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  contractId: bigint("contract_id", { mode: "number" })
    .notNull()
    .references(() => contracts.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  cpfTries: integer("cpf_tries").notNull().default(0),
  firstViewAt: timestamp("first_view_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The evidence of a signature (append-only: one row per event: view, cpf check, signature). */
export const contractEvidence = pgTable(
  "contract_evidence",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    contractId: bigint("contract_id", { mode: "number" })
      .notNull()
      .references(() => contracts.id, { onDelete: "cascade" }),
    event: text("event", { enum: ["sent", "view", "cpf_ok", "cpf_wrong", "signed"] }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    ip: text("ip").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    /** what the event carries: the hashes, the name typed, the number */
    data: text("data").notNull().default("{}"),
  },
  (t) => [index("contract_evidence_contract_idx").on(t.contractId, t.id)],
);
