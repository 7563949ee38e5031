import { type AuditEntry, CONTRACT_STATUSES, SETTING_CHOICES, TICKET_STATUSES } from "@balcao/contract";
import type { TFunction } from "i18next";
import { LANGUAGES } from "../../locales";

/**
 * An audit entry in words: what it is about ("ticket:3" → "Atendimento #3", "setting:aiBaseUrl" →
 * the setting's label) and what changed ("Status: Atendendo → Aguardando; Atendente: Ana →
 * ninguém"). The server records ids, keys and enum values (modules/audit); the screen names them.
 */

/** The names the screen knows (the lists an admin reads); undefined when not known (a deleted user). */
export interface AuditNames {
  user: (id: number) => string | undefined;
  queue: (id: number) => string | undefined;
  connection: (id: number) => string | undefined;
}

export const NO_NAMES: AuditNames = { user: () => undefined, queue: () => undefined, connection: () => undefined };

/** The kinds of target the server writes ("<kind>:<id>", or the kind alone): each has a label (audit.targets). */
export const AUDIT_TARGET_KINDS = ["user", "ticket", "contact", "message", "contract", "disparos", "settings", "audit", "media"] as const;
/** Targets named "<kind> #<id>". */
const NUMBERED = new Set(["ticket", "contact", "message", "contract"]);

const num = (v: unknown): number | undefined =>
  typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : undefined;

/** "ticket:3" → "Atendimento #3"; "user:2" → the user's name; "setting:aiBaseUrl" → the setting's label. */
export function targetText(target: string, t: TFunction, names: AuditNames = NO_NAMES): string {
  if (!target) return "—";
  const at = target.indexOf(":");
  const kind = at < 0 ? target : target.slice(0, at);
  const id = at < 0 ? "" : target.slice(at + 1);
  if (kind === "setting") return t(`settings.fields.${id}`, { defaultValue: id });
  if (kind === "user" && num(id) !== undefined) return names.user(Number(id)) ?? t("audit.targets.user", { id });
  if (NUMBERED.has(kind) && id) return t(`audit.targets.${kind}`, { id });
  // a batch of disparos is a UUID: its first block tells it apart
  if (kind === "disparos" && id) return t("audit.targets.disparoBatch", { id: id.split("-")[0] });
  if ((AUDIT_TARGET_KINDS as readonly string[]).includes(kind) && !id) return t(`audit.targets.${kind}`);
  return target;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

const REDACTED = "[redacted]";

/** A date typed in a filter (YYYY-MM-DD) or an instant (ISO), in the reader's language. */
function dateText(v: string, lang: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return new Date(`${v}T12:00:00`).toLocaleDateString(lang);
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? v : d.toLocaleString(lang, { dateStyle: "short", timeStyle: "short" });
}

/** One value of a change, in words (`key` says what it is). */
function valueText(key: string, v: unknown, t: TFunction, names: AuditNames, lang: string): string {
  if (v === null || v === undefined) {
    if (key === "userId") return t("audit.values.nobody");
    if (key === "queueId") return t("audit.values.noQueue");
    return "—";
  }
  const id = num(v);
  if (id !== undefined) {
    if (key === "userId") return names.user(id) ?? t("audit.targets.user", { id });
    if (key === "queueId") return names.queue(id) ?? t("audit.targets.queue", { id });
    if (key === "whatsappId") return names.connection(id) ?? t("audit.targets.connection", { id });
    if (key === "ticketId") return t("audit.targets.ticket", { id });
    if (key === "contactId") return t("audit.targets.contact", { id });
    if (key === "templateId") return t("audit.targets.template", { id });
  }
  if (key === "contractId") return t("audit.targets.contract", { id: String(v) });
  if (Array.isArray(v)) {
    if (v.length === 0) return "—";
    return v.map((x) => valueText(key === "queueIds" ? "queueId" : key, x, t, names, lang)).join(", ");
  }
  if (typeof v === "boolean") return v ? t("audit.values.yes") : t("audit.values.no");
  if (typeof v === "number") return v.toLocaleString(lang);
  if (typeof v !== "string") return JSON.stringify(v);
  if (v === "") return t("audit.values.empty");
  if (v === REDACTED) return t("audit.values.hidden");
  if (key === "status" && (TICKET_STATUSES as readonly string[]).includes(v)) return t(`audit.ticketStatus.${v}`);
  if (key === "status" && (CONTRACT_STATUSES as readonly string[]).includes(v)) return t(`audit.contractStatus.${v}`);
  if (key === "profile") return t(`users.profiles.${v}`, { defaultValue: v });
  if (key === "source") return t(`audit.sources.${v}`, { defaultValue: v });
  if (key === "mediaType") return t(`audit.mediaTypes.${v}`, { defaultValue: v });
  if (key === "action") return t(`audit.actions.${v}`, { defaultValue: v });
  if (key === "theme") return t(`audit.themes.${v}`, { defaultValue: v });
  if (key === "language") return LANGUAGES.find((l) => l.code === v)?.label ?? v;
  if (key === "startAt" || key === "from" || key === "to") return dateText(v, lang);
  return v;
}

/** A setting's value: its switch (Ligado/Desligado) or select choice as the settings screen says it. */
function settingValueText(key: string, v: unknown, t: TFunction): string {
  if (v === null || v === undefined) return "—";
  if (typeof v !== "string") return JSON.stringify(v);
  if (v === "") return t("audit.values.empty");
  if (v === REDACTED) return t("audit.values.hidden");
  const choices = SETTING_CHOICES[key as keyof typeof SETTING_CHOICES];
  if (choices?.includes(v)) {
    if (v === "enabled" || v === "disabled") return t(`audit.values.${v}`);
    return t(`settings.options.${key}.${v}`, { defaultValue: v });
  }
  return v;
}

/** The label of a key of before/after; audit.export's keys are its filters. */
function keyText(action: string, key: string, t: TFunction): string {
  if (action === "audit.export" && key === "userId") return t("audit.fields.user");
  return t(`audit.fields.${key}`, { defaultValue: key });
}

/**
 * What changed, one part per key: "Label: before → after", or "Label: value" when only one side
 * was recorded. A setting shows its values only (the target names it); a contact's edit names the
 * fields changed ("Campos: Nome, Número, CPF": the server keeps no values of a contact).
 */
export function changeText(
  e: Pick<AuditEntry, "action" | "before" | "after">,
  t: TFunction,
  names: AuditNames = NO_NAMES,
  lang = "pt-BR",
): string {
  const b = isObject(e.before) ? e.before : undefined;
  const a = isObject(e.after) ? e.after : undefined;
  if (!b && !a) return "";
  // a setting: { key, value } on both sides
  if (b && a && typeof a.key === "string" && "value" in a) {
    return `${settingValueText(a.key, b.value, t)} → ${settingValueText(a.key, a.value, t)}`;
  }
  // a contact's edit, by reference: the names of the fields, the extra ones as the provider named them
  if (e.action === "contact.update" && a && Array.isArray(a.fields)) {
    const fields = (a.fields as unknown[]).map((f) => t(`contacts.form.${String(f)}`, { defaultValue: String(f) }));
    const extra = Array.isArray(a.extraInfo) ? (a.extraInfo as unknown[]).map(String) : [];
    return `${t("audit.fields.fields")}: ${[...fields, ...extra].join(", ")}`;
  }
  const sides = e.action === "audit.export" ? dropNulls(a) : undefined;
  if (e.action === "audit.export" && sides && Object.keys(sides).length === 0) return t("audit.values.noFilters");
  const before = b;
  const after = sides ?? a;
  const both = !!before && !!after;
  // what stayed as it was (a transfer to another agent in the same queue) is left out
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (k) => !both || JSON.stringify(before?.[k] ?? null) !== JSON.stringify(after?.[k] ?? null),
  );
  return keys
    .map((k) => {
      const one = (v: unknown) => valueText(k, v, t, names, lang);
      const v = (after ?? before)?.[k];
      // a yes/no that reads as a sentence ("Senha alterada")
      if ((k === "passwordChanged" || k === "ok") && typeof v === "boolean") return t(`audit.flags.${k}.${v}`);
      // an id that names itself ("Atendimento #3")
      if (!both && SELF_NAMED.has(k) && v !== null && v !== undefined) return one(v);
      const label = keyText(e.action, k, t);
      return both ? `${label}: ${one(before?.[k])} → ${one(after?.[k])}` : `${label}: ${one(v)}`;
    })
    .join("; ");
}

/** Keys whose value reads as a name of its own: "Atendimento #3", not "Atendimento: Atendimento #3". */
const SELF_NAMED = new Set(["ticketId", "contactId", "templateId", "contractId"]);

function dropNulls(o: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return o && Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== ""));
}
