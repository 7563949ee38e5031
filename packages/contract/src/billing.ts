import { z } from "zod";

/**
 * The billing system (SGP or MK-AUTH) as the agent's panel and the self-service bot see it: one
 * shape for both. Money in reais (number), dates as YYYY-MM-DD.
 */

export const contractStatus = z.enum(["active", "reduced", "suspended", "inactive", "cancelled", "new", "unknown"]);
export type BillingContractStatus = z.infer<typeof contractStatus>;

export const billingContractSchema = z.object({
  /** SGP contratoId; MK-AUTH login */
  id: z.string(),
  customerName: z.string(),
  document: z.string(),
  status: contractStatus,
  /** the label the billing system shows */
  statusLabel: z.string(),
  plan: z.string(),
  address: z.string(),
  /** the contract's city and POP, when the billing system gives them (an incident's area places the customer by them) */
  city: z.string().optional(),
  pop: z.string().optional(),
  /** phones (digits) the billing system knows for this contract */
  phones: z.array(z.string()),
});
export type BillingContract = z.infer<typeof billingContractSchema>;

export const billingInvoiceSchema = z.object({
  id: z.string(),
  contractId: z.string(),
  dueDate: z.string(),
  amount: z.number(),
  digitableLine: z.string().nullable(),
  /** PIX copia-e-cola given by the billing system (null when it gives none) */
  pixCode: z.string().nullable(),
  pdfUrl: z.string().nullable(),
  overdue: z.boolean(),
});
export type BillingInvoice = z.infer<typeof billingInvoiceSchema>;

export const connectionState = z.enum(["online", "offline", "blocked", "maintenance", "released", "unknown"]);
export const billingConnectionSchema = z.object({ state: connectionState, message: z.string() });
export type BillingConnection = z.infer<typeof billingConnectionSchema>;

export const unlockResultSchema = z.object({
  unlocked: z.boolean(),
  days: z.number().nullable(),
  /** the billing system's answer, verbatim when it gives one */
  message: z.string(),
  protocol: z.string().nullable(),
});
export type UnlockResult = z.infer<typeof unlockResultSchema>;

export const billingCustomerQuery = z.object({
  ticketId: z.coerce.number().int().positive(),
  /** a CPF/CNPJ the agent typed; without it the contract linked to the ticket, then the contact's phone */
  document: z.string().max(20).optional(),
  /** which of the customer's contracts to detail (default: the linked one, else the first) */
  contractId: z.string().max(64).optional(),
});

export const billingCustomerAnswer = z.object({
  system: z.enum(["SGP", "MK-AUTH"]),
  /** how the customer was found */
  via: z.enum(["document", "linked", "phone", "none"]),
  contracts: z.array(billingContractSchema),
  /** the detailed contract (null when none was found) */
  contract: billingContractSchema.nullable(),
  invoices: z.array(billingInvoiceSchema),
  connection: billingConnectionSchema.nullable(),
  /** what was done in the billing system from this ticket (unlocks), newest first */
  actions: z.array(
    z.object({
      action: z.string(),
      contractId: z.string(),
      ok: z.boolean(),
      message: z.string(),
      protocol: z.string().nullable(),
      /** null: the customer, in the self-service bot */
      userName: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
});
export type BillingCustomerAnswer = z.infer<typeof billingCustomerAnswer>;

export const billingTicketParams = z.object({ ticketId: z.coerce.number().int().positive() });
export const billingSendInvoiceBody = z.object({ contractId: z.string().min(1).max(64), invoiceId: z.string().min(1).max(64) });
export const billingUnlockBody = z.object({
  contractId: z.string().min(1).max(64),
  /** the agent confirmed the dialog */
  confirm: z.literal(true),
});
export const billingSentAnswer = z.object({ messageIds: z.array(z.number()) });
export const billingUnlockAnswer = unlockResultSchema.extend({ messageIds: z.array(z.number()) });
/** `detail`: what happened and what to check, in Portuguese; `technical`: the code and path behind it (no secret), shown second. */
export const billingTestAnswer = z.object({ ok: z.boolean(), system: z.string(), detail: z.string(), technical: z.string().optional() });
export type BillingTestAnswer = z.infer<typeof billingTestAnswer>;
export const billingTestBody = z
  .object({
    system: z.enum(["SGP", "MK-AUTH"]).optional(),
    url: z.string().max(500).optional(),
    app: z.string().max(200).optional(),
    /** blank: the saved one, which is only ever sent to the saved URL */
    token: z.string().max(500).optional(),
  })
  .default({});
