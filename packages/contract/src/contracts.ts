import { z } from "zod";
import { formatCnpj, formatCpf, isValidCpf } from "./documents.js";

/**
 * Contracts signed from the chat (document 001 §2, §3, §4, §7; issue 20). A contract is generated
 * from a template, sent to the customer with a personal signing link, and signed on a public page
 * (simple electronic signature with evidence: MP 2.200-2/2001 art. 10 §2).
 */

export const CONTRACT_STATUSES = ["Nao assinado", "Assinado"] as const;
export const contractStatusSchema = z.enum(CONTRACT_STATUSES);
export type ContractStatus = z.infer<typeof contractStatusSchema>;

/** §4: Assinado green, Nao assinado amber. */
export const CONTRACT_STATUS_COLORS: Record<ContractStatus, string> = {
  Assinado: "#2e7d32",
  "Nao assinado": "#ed6c02",
};

export const CONTRACT_PAGE_SIZES = [5, 10, 20, 50] as const;
export const CONTRACT_PAGE_SIZE_DEFAULT = 10;
/** the delete-all of the screen fetches up to this many */
export const CONTRACT_LIST_MAX = 1000;

/** How long a signing link lives, and how many wrong CPF tries lock it. */
export const SIGNING_LINK_DAYS = 7;
export const SIGNING_CPF_TRIES = 5;

/** Variables a template's body may use: `{nome}` etc. */
export const CONTRACT_VARIABLES = [
  "nome",
  "cpf",
  "email",
  "telefone",
  "endereco",
  "plano",
  "valor",
  "data",
  "empresa",
  "cnpj_empresa",
  "endereco_empresa",
  "testemunha1_nome",
  "testemunha1_cpf",
  "testemunha2_nome",
  "testemunha2_cpf",
] as const;

/** Fields the agent fills per contract (the rest come from the customer and the settings). */
export const CONTRACT_FIELDS = ["endereco", "plano", "valor"] as const;

/** GET /api/contratos items, exactly as the spec's screen reads them. */
export const contractItemSchema = z.object({
  id: z.number(),
  titulo: z.string(),
  nome: z.string(),
  email: z.string(),
  status: contractStatusSchema,
  /** when the link went to the customer (ISO), null while the document is being generated */
  data_envio: z.string().nullable(),
  /** the agent who sent it */
  atendente: z.string(),
  /** where the signed-in client reads the file (the signed one once signed); null until generated */
  caminho: z.string().nullable(),
  ticketId: z.number().nullable(),
  cpf: z.string(),
  assinado_em: z.string().nullable(),
});
export type ContractItem = z.infer<typeof contractItemSchema>;

const dayOnly = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Invalid date");

export const contractsQuery = z.object({
  ticket: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(CONTRACT_LIST_MAX).default(CONTRACT_PAGE_SIZE_DEFAULT),
  status: z.union([z.literal(""), contractStatusSchema]).optional(),
  /** plain dates in the product's time zone, both inclusive */
  from: z.union([z.literal(""), dayOnly]).optional(),
  to: z.union([z.literal(""), dayOnly]).optional(),
});
export type ContractsQuery = z.input<typeof contractsQuery>;

export const contractsAnswer = z.object({ items: z.array(contractItemSchema), total: z.number() });
export type ContractsAnswer = z.infer<typeof contractsAnswer>;

const cpfField = z
  .string()
  .trim()
  .max(20)
  .refine((v) => isValidCpf(v), "CPF inválido");

export const contractCreateBody = z.object({
  ticketId: z.number().int().positive(),
  nome: z.string().trim().min(2, "Required").max(200, "Too Long!"),
  email: z.union([z.literal(""), z.string().trim().max(200).email("Invalid email")]).default(""),
  cpf: cpfField,
  titulo: z.string().trim().max(200, "Too Long!").optional(),
  modeloId: z.number().int().positive().optional(),
  campos: z.record(z.string().max(40), z.string().max(2000)).optional(),
});
export type ContractCreateBody = z.input<typeof contractCreateBody>;

export const contractTemplateSchema = z.object({
  id: z.number(),
  titulo: z.string(),
  corpo: z.string(),
  padrao: z.boolean(),
  updatedAt: z.string(),
});
export type ContractTemplate = z.infer<typeof contractTemplateSchema>;

export const contractTemplateBody = z.object({
  titulo: z.string().trim().min(1, "Required").max(200, "Too Long!"),
  corpo: z.string().trim().min(1, "Required").max(50_000, "Too Long!"),
  padrao: z.boolean().optional(),
});
export type ContractTemplateBody = z.input<typeof contractTemplateBody>;

/** The signing page's calls. */
export const signingCpfBody = z.object({
  cpf5: z
    .string()
    .trim()
    .regex(/^\d{5}$/, "Digite os 5 primeiros dígitos"),
});
export const signingAcceptBody = z.object({
  cpf5: z
    .string()
    .trim()
    .regex(/^\d{5}$/, "Digite os 5 primeiros dígitos"),
  nome: z.string().trim().min(2, "Required").max(200),
  aceito: z.literal(true),
  /** SHA-256 (hex) of the document the page showed */
  documentoSha256: z
    .string()
    .trim()
    .regex(/^[a-f0-9]{64}$/i),
});
export const signingAnswer = z.object({
  ok: z.boolean(),
  restantes: z.number().optional(),
  /** the contract's text, answered once the CPF is confirmed (the page shows the document only then) */
  texto: z.string().optional(),
  assinadoSha256: z.string().optional(),
});

/** `contract` socket event: a contract was created, generated, signed or deleted. */
export type ContractEvent = { action: "update"; contract: ContractItem } | { action: "delete"; id: number };

/** Fills `{var}` placeholders; unknown ones stay as written. */
export function fillTemplate(body: string, values: Record<string, string>): string {
  return body.replace(/\{([a-z0-9_]+)\}/gi, (m, k: string) => (k in values ? values[k] : m));
}

/** Variables the contract's WhatsApp messages add: the contract's title and the link (`{url}` = `{link}`). */
export const CONTRACT_MESSAGE_VARIABLES = ["titulo", "link", "url"] as const;

/** A witness as the settings name them (contrato_nome1, contrato_cpf1, …). */
export interface ContractWitness {
  nome: string;
  cpf: string;
}

/** The witnesses of the settings: named ones only, in order, CPF formatted. */
export function witnessesFromSettings(s: {
  contrato_nome1?: string;
  contrato_cpf1?: string;
  contrato_nome2?: string;
  contrato_cpf2?: string;
}): ContractWitness[] {
  return [
    { nome: (s.contrato_nome1 ?? "").trim(), cpf: formatCpf((s.contrato_cpf1 ?? "").trim()) },
    { nome: (s.contrato_nome2 ?? "").trim(), cpf: formatCpf((s.contrato_cpf2 ?? "").trim()) },
  ].filter((w) => w.nome);
}

/** The provider as its contracts name it (settings empresa_nome, empresa_cnpj, empresa_endereco); "" where not set. */
export interface ContractCompany {
  nome: string;
  /** formatted 00.000.000/0000-00 */
  cnpj: string;
  endereco: string;
}

/** The provider's identity of the settings, trimmed, the CNPJ formatted. */
export function companyFromSettings(s: { empresa_nome?: string; empresa_cnpj?: string; empresa_endereco?: string }): ContractCompany {
  const cnpj = (s.empresa_cnpj ?? "").trim();
  return { nome: (s.empresa_nome ?? "").trim(), cnpj: cnpj ? formatCnpj(cnpj) : "", endereco: (s.empresa_endereco ?? "").trim() };
}

/** Whether any of the provider's identity is set (the PDF prints its header only then). */
export function hasCompany(c: ContractCompany | undefined): c is ContractCompany {
  return !!c && !!(c.nome || c.cnpj || c.endereco);
}

/** The `{data}` of a contract: "25 de novembro de 2026" in the product's time zone. */
export function contractDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("pt-BR", { timeZone, day: "numeric", month: "long", year: "numeric" }).format(at);
}

/** What a contract's variables are filled from. */
export interface ContractValues {
  nome: string;
  cpf: string;
  email: string;
  telefone: string;
  /** the agent's fields (endereco, plano, valor, or a template's own) */
  campos?: Record<string, string>;
  witnesses: ContractWitness[];
  /** the provider (companyFromSettings); absent or "" parts print the blank */
  empresa?: ContractCompany;
  /** already formatted (contractDate) */
  data: string;
  /** the messages' own */
  titulo?: string;
  link?: string;
}

/** A field left empty prints a line to fill by hand, not nothing. */
export const CONTRACT_BLANK = "________________";

/**
 * Every variable's value for a contract (CONTRACT_VARIABLES, the agent's fields, and the messages'
 * ones when given). The provider's `{empresa}`, `{cnpj_empresa}` and `{endereco_empresa}` come from
 * the settings only: an agent's field of the same name does not change them.
 */
export function contractVariables(v: ContractValues): Record<string, string> {
  const campos = Object.fromEntries(Object.entries(v.campos ?? {}).map(([k, x]) => [k.trim(), x.trim() || CONTRACT_BLANK]));
  const witness = (i: number, k: keyof ContractWitness) => v.witnesses[i]?.[k] || CONTRACT_BLANK;
  return {
    endereco: CONTRACT_BLANK,
    plano: CONTRACT_BLANK,
    valor: CONTRACT_BLANK,
    ...campos,
    empresa: v.empresa?.nome || CONTRACT_BLANK,
    cnpj_empresa: v.empresa?.cnpj || CONTRACT_BLANK,
    endereco_empresa: v.empresa?.endereco || CONTRACT_BLANK,
    nome: v.nome,
    cpf: formatCpf(v.cpf),
    email: v.email.trim() || CONTRACT_BLANK,
    telefone: v.telefone.trim() || CONTRACT_BLANK,
    data: v.data,
    testemunha1_nome: witness(0, "nome"),
    testemunha1_cpf: witness(0, "cpf"),
    testemunha2_nome: witness(1, "nome"),
    testemunha2_cpf: witness(1, "cpf"),
    ...(v.titulo !== undefined ? { titulo: v.titulo } : {}),
    ...(v.link !== undefined ? { link: v.link, url: v.link } : {}),
  };
}

/**
 * The one filling of a contract's texts: the template's body (the PDF and every preview) and the
 * WhatsApp messages (sending, confirmation). Unknown `{variables}` stay as written.
 */
export function fillContract(text: string, v: ContractValues): string {
  return fillTemplate(text, contractVariables(v));
}

export const DEFAULT_CONTRACT_TEMPLATE = {
  titulo: "Contrato de Prestação de Serviços de Internet",
  corpo: `CONTRATO DE PRESTAÇÃO DE SERVIÇOS DE ACESSO À INTERNET

CONTRATANTE: {nome}, inscrito(a) no CPF sob o nº {cpf}, e-mail {email}, telefone {telefone}, residente em {endereco}.

CONTRATADA: {empresa}, inscrita no CNPJ sob o nº {cnpj_empresa}, com sede em {endereco_empresa}, doravante CONTRATADA.

1. OBJETO. A CONTRATADA prestará ao CONTRATANTE o serviço de acesso à internet no plano {plano}, no endereço do CONTRATANTE indicado acima.

2. PREÇO. O CONTRATANTE pagará mensalmente o valor de {valor}, com vencimento no dia escolhido na instalação.

3. PRAZO. Este contrato vigora por prazo indeterminado a partir da data de sua assinatura, podendo ser rescindido por qualquer das partes mediante aviso prévio de 30 (trinta) dias.

4. OBRIGAÇÕES. A CONTRATADA manterá o serviço disponível conforme a regulamentação da Anatel; o CONTRATANTE zelará pelos equipamentos cedidos em comodato e os devolverá ao fim do contrato.

5. ASSINATURA ELETRÔNICA. As partes reconhecem como válida a assinatura eletrônica deste instrumento, nos termos do art. 10, § 2º, da MP 2.200-2/2001, por meio de link pessoal enviado ao WhatsApp do CONTRATANTE, com conferência de CPF e aceite expresso.

{data}

Testemunhas:
{testemunha1_nome} — CPF {testemunha1_cpf}
{testemunha2_nome} — CPF {testemunha2_cpf}`,
};
