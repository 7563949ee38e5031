import {
  type BillingContract,
  documentKind,
  normalizeDocument,
  SELF_SERVICE_TEXT_KEYS,
  SETTING_DEFAULTS,
  type UnlockResult,
} from "@balcao/contract";
import type { DbOrTx } from "../../db/client.js";
import { getSettingValues } from "../settings/service.js";
import { fill, invoiceReplies, type PixSettings, type Reply } from "./compose.js";
import { BillingError } from "./http.js";
import type { Billing } from "./registry.js";
import { digits } from "./types.js";

/**
 * The self-service conversation (2ª via, desbloqueio de confiança, status da conexão, falar com
 * atendente) as a state machine: given its saved state and what the customer wrote, it answers the
 * replies to send, the state to save, and whether to hand the customer over to a person. It stores
 * nothing and sends nothing: the caller (a bot step) saves the state, queues the replies through
 * the outbox, records `actions`, and on `handover` links the contract to the ticket and moves it
 * to the queue. Only the billing system is called.
 *
 * Identification: a CPF/CNPJ with valid check digits. When the billing system knows the contract's
 * phones, the WhatsApp number must be one of them (otherwise nothing is revealed and the customer
 * is handed over); when it knows none, the customer gets only what a bill shows (2ª via).
 */

export type SelfServiceStep = "document" | "contract" | "menu" | "done";

export interface SelfServiceState {
  step: SelfServiceStep;
  document?: string;
  /** the contracts offered to choose from (step "contract") */
  contractIds?: string[];
  contractId?: string;
  /** identified without a phone match: only the 2ª via is offered */
  restricted?: boolean;
  /** wrong answers in a row */
  misses: number;
}

export type SelfServiceTexts = Record<(typeof SELF_SERVICE_TEXT_KEYS)[number], string>;

export const DEFAULT_SELF_SERVICE_TEXTS: SelfServiceTexts = Object.fromEntries(
  SELF_SERVICE_TEXT_KEYS.map((k) => [k, SETTING_DEFAULTS[k]]),
) as SelfServiceTexts;

export function selfServiceTexts(db: DbOrTx): Promise<SelfServiceTexts> {
  return getSettingValues(db, SELF_SERVICE_TEXT_KEYS);
}

export interface SelfServiceInput {
  /** what the customer wrote (null on entry, before the customer wrote anything for this step) */
  text: string | null;
  /** the WhatsApp number of the contact (digits), null when only its LID is known */
  contactNumber: string | null;
  billing: Billing;
  texts: SelfServiceTexts;
  pix: PixSettings;
  /**
   * Balcão's own unlock rule, asked before calling the system (MK-AUTH exposes none): answers a
   * refusal text, or null to go ahead. Without it, the billing system alone decides.
   */
  unlockRefusal?: (contract: BillingContract) => Promise<string | null>;
}

export interface SelfServiceAction {
  action: "unlock";
  contractId: string;
  result: UnlockResult;
}

export interface SelfServiceResult {
  state: SelfServiceState;
  replies: Reply[];
  /** hand the customer to the queue, with the contract when one was identified */
  handover: null | {
    system: "SGP" | "MK-AUTH";
    document: string | null;
    contractId: string | null;
    /** where the identified contract is (when it was looked up in this step) */
    city?: string;
    pop?: string;
    reason: "asked" | "not_found" | "unavailable" | "misses";
  };
  actions: SelfServiceAction[];
}

const MAX_MISSES = 3;
const text = (body: string): Reply => ({ kind: "text", body });

/** Same line: the last 8 digits agree, and the DDD too when both numbers carry one. */
export function samePhone(a: string, b: string): boolean {
  const strip = (s: string) => {
    let d = digits(s);
    if (d.length >= 12 && d.startsWith("55")) d = d.slice(2);
    return d;
  };
  const x = strip(a);
  const y = strip(b);
  if (x.length < 8 || y.length < 8 || x.slice(-8) !== y.slice(-8)) return false;
  if (x.length >= 10 && y.length >= 10) return x.slice(0, 2) === y.slice(0, 2);
  return true;
}

export async function stepSelfService(saved: SelfServiceState | null, input: SelfServiceInput): Promise<SelfServiceResult> {
  const { billing, texts } = input;
  let state: SelfServiceState = saved ?? { step: "document", misses: 0 };
  const replies: Reply[] = [];
  const actions: SelfServiceAction[] = [];
  const said = (input.text ?? "").trim();
  let current: BillingContract | undefined;
  const done = (reason: NonNullable<SelfServiceResult["handover"]>["reason"], body: string): SelfServiceResult => ({
    state: { ...state, step: "done" },
    replies: [...replies, text(body)],
    handover: {
      system: billing.name,
      document: state.document ?? null,
      contractId: state.contractId ?? null,
      ...(current && current.id === state.contractId && { city: current.city, pop: current.pop }),
      reason,
    },
    actions,
  });
  const menu = (): Reply[] => [
    ...(state.restricted ? [text(texts.selfServiceRestricted)] : []),
    text(fill(texts.selfServiceMenu, { name: firstName(current?.customerName ?? "") })),
  ];

  try {
    // entering: a customer whose first words are a document goes straight on
    if (!saved && !documentKind(said)) return { state, replies: [text(texts.selfServiceAskDocument)], handover: null, actions };

    if (state.step === "document") {
      const doc = normalizeDocument(said);
      if (!documentKind(doc)) {
        state = { ...state, misses: state.misses + 1 };
        if (state.misses >= MAX_MISSES) return done("misses", texts.selfServiceHandover);
        return { state, replies: [text(texts.selfServiceInvalidDocument)], handover: null, actions };
      }
      state = { ...state, document: doc };
      const found = await billing.findByDocument(doc);
      const withPhones = found.filter((c) => c.phones.length > 0);
      const matched = input.contactNumber
        ? withPhones.filter((c) => c.phones.some((p) => samePhone(p, input.contactNumber as string)))
        : [];
      let usable: BillingContract[];
      let restricted = false;
      if (matched.length) usable = matched;
      else if (found.length && withPhones.length === 0) {
        usable = found;
        restricted = true;
      } else {
        state = { ...state, document: doc };
        return done("not_found", texts.selfServiceNotFound);
      }
      state = { step: "menu", document: doc, restricted, misses: 0 };
      if (usable.length > 1) {
        state = { ...state, step: "contract", contractIds: usable.map((c) => c.id) };
        const list = usable.map((c, i) => `${i + 1} - Contrato ${c.id}${c.address ? ` — ${c.address}` : ""}`).join("\n");
        return { state, replies: [text(`${texts.selfServiceChooseContract}\n${list}`)], handover: null, actions };
      }
      state.contractId = usable[0].id;
      current = usable[0];
      return { state, replies: menu(), handover: null, actions };
    }

    // from here on the contract comes from the (cached) lookup of the saved document
    const contracts = state.document ? await billing.findByDocument(state.document) : [];

    if (state.step === "contract") {
      const n = Number(said);
      const ids = state.contractIds ?? [];
      if (!Number.isInteger(n) || n < 1 || n > ids.length) {
        state = { ...state, misses: state.misses + 1 };
        if (state.misses >= MAX_MISSES) return done("misses", texts.selfServiceHandover);
        return { state, replies: [text(texts.selfServiceInvalidOption)], handover: null, actions };
      }
      current = contracts.find((c) => c.id === ids[n - 1]);
      if (!current) return done("not_found", texts.selfServiceNotFound);
      state = { ...state, step: "menu", contractId: current.id, contractIds: undefined, misses: 0 };
      return { state, replies: menu(), handover: null, actions };
    }

    if (state.step === "menu") {
      current = contracts.find((c) => c.id === state.contractId);
      if (!current) return done("not_found", texts.selfServiceNotFound);
      const option = said.replace(/\D/g, "");
      if (option === "4") return done("asked", texts.selfServiceHandover);
      if (option === "1") {
        const invoices = await billing.openInvoices(current);
        if (!invoices.length) replies.push(text(texts.selfServiceNoInvoices));
        for (const inv of invoices) replies.push(...(await invoiceReplies(billing, input.pix, current, inv, texts.selfServiceInvoice)));
        state = { ...state, misses: 0 };
        return { state, replies: [...replies, ...menu()], handover: null, actions };
      }
      if ((option === "2" || option === "3") && state.restricted) {
        state = { ...state, misses: 0 };
        return { state, replies: menu(), handover: null, actions };
      }
      if (option === "2") {
        const refusal = input.unlockRefusal ? await input.unlockRefusal(current) : null;
        if (refusal) {
          state = { ...state, misses: 0 };
          return { state, replies: [text(fill(texts.selfServiceUnlockRefused, { message: refusal })), ...menu()], handover: null, actions };
        }
        const result = await billing.unlock(current, "Desbloqueio de confiança pedido pelo cliente no WhatsApp (Balcão)");
        actions.push({ action: "unlock", contractId: current.id, result });
        replies.push(
          text(
            result.unlocked
              ? fill(texts.selfServiceUnlockDone, { days: result.days ?? "?", message: result.message })
              : fill(texts.selfServiceUnlockRefused, { message: result.message }),
          ),
        );
        state = { ...state, misses: 0 };
        return { state, replies: [...replies, ...menu()], handover: null, actions };
      }
      if (option === "3") {
        const conn = await billing.connection(current);
        replies.push(text(fill(texts.selfServiceConnection, { message: conn.message || CONNECTION_LABEL[conn.state] })));
        state = { ...state, misses: 0 };
        return { state, replies: [...replies, ...menu()], handover: null, actions };
      }
      state = { ...state, misses: state.misses + 1 };
      if (state.misses >= MAX_MISSES) return done("misses", texts.selfServiceHandover);
      return { state, replies: [text(texts.selfServiceInvalidOption), ...menu()], handover: null, actions };
    }

    // done: nothing more to say; the ticket is with the queue
    return { state, replies: [], handover: null, actions };
  } catch (err) {
    if (err instanceof BillingError) return done("unavailable", texts.selfServiceUnavailable);
    throw err;
  }
}

const CONNECTION_LABEL: Record<string, string> = {
  online: "conectada",
  offline: "desconectada",
  blocked: "bloqueada por pendência financeira",
  maintenance: "em manutenção na sua região",
  released: "liberada",
  unknown: "desconhecido",
};

function firstName(name: string): string {
  const first = name.trim().split(/\s+/)[0] ?? "";
  return first ? first[0].toUpperCase() + first.slice(1).toLowerCase() : "cliente";
}
