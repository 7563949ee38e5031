// Every value of an enum the web shows has a label in pt-BR, en and es, and a Brazilian user never
// reads the raw value ("evp", "qrcode", "pending") where it is not already a Portuguese word. The
// values come from @balcao/contract: a value added there without its labels fails here. The texts are
// the ones each screen loads with it (its page module, through the feature's index.ts).
import {
  AUDIT_ACTIONS,
  CONNECTION_STATUSES,
  CONTRACT_STATUSES,
  DISPARO_STATUSES,
  MEDIA_TYPES,
  messageSourceSchema,
  PROFILES,
  SCHEDULE_STATUSES,
  SETTING_CHOICES,
  TICKET_STATUSES,
} from "@balcao/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { auditRoutes } from "../features/audit";
import { connectionsRoutes } from "../features/connections";
import { contractsRoutes } from "../features/contracts";
import { disparosRoutes } from "../features/disparos";
import { schedulesRoutes } from "../features/schedules";
import { settingsRoutes } from "../features/settings";
import i18n, { LANGUAGES, setLanguage } from "../locales";

interface Shown {
  /** what it is, in the failure message */
  name: string;
  values: readonly string[];
  /** where its labels are: "<path>.<value>" */
  labels: string;
  /** the values that are the Portuguese word already (an acronym, a brand, a Portuguese enum) */
  portuguese?: readonly string[] | "all";
}

const SWITCH = ["enabled", "disabled"];
const isSwitch = (choices: readonly string[]) => choices.length === SWITCH.length && SWITCH.every((c) => choices.includes(c));

/** The enums the screens show, with where their labels are. */
const SHOWN: Shown[] = [
  { name: "ticket statuses (the audit log)", values: TICKET_STATUSES, labels: "audit.ticketStatus" },
  { name: "connection statuses (connection cards, the simulator)", values: CONNECTION_STATUSES, labels: "connections.status" },
  { name: "audit actions", values: AUDIT_ACTIONS, labels: "audit.actions" },
  {
    name: "message sources (the audit log)",
    values: messageSourceSchema.options,
    labels: "audit.sources",
    portuguese: ["bot", "api", "disparo"],
  },
  { name: "media types (the audit log)", values: MEDIA_TYPES, labels: "audit.mediaTypes" },
  { name: "contract statuses (the audit log)", values: CONTRACT_STATUSES, labels: "audit.contractStatus", portuguese: "all" },
  { name: "contract statuses (Contratos)", values: CONTRACT_STATUSES, labels: "contracts.statuses", portuguese: "all" },
  { name: "profiles", values: PROFILES, labels: "users.profiles" },
  { name: "schedule statuses", values: SCHEDULE_STATUSES, labels: "schedules.statuses" },
  { name: "disparo statuses", values: DISPARO_STATUSES, labels: "disparos.statuses", portuguese: "all" },
  // a setting with a closed choice: a switch (Ligado/Desligado in the audit log), else a select of its own labels
  { name: "switch settings (the audit log)", values: SWITCH, labels: "audit.values" },
  ...Object.entries(SETTING_CHOICES)
    .filter(([, choices]) => !isSwitch(choices ?? []))
    .map(([key, choices]) => ({
      name: `the ${key} setting's choices`,
      values: choices ?? [],
      labels: `settings.options.${key}`,
      portuguese: { pixKeyType: ["cpf", "cnpj"], mail_smtp_secure: ["ssl"], integrationSystem: ["SGP", "MK-AUTH"] }[key],
    })),
];

beforeAll(async () => {
  // each screen's texts, as the router loads them
  for (const routes of [auditRoutes, connectionsRoutes, contractsRoutes, disparosRoutes, schedulesRoutes, settingsRoutes]) {
    for (const r of routes) await r.page();
  }
  // English and Spanish load when chosen: the features' texts join them then
  for (const { code } of LANGUAGES) await setLanguage(code);
  await setLanguage("pt-BR");
}, 60_000);

/** The label of one value in one language, read from the texts themselves (no fallback to another language). */
function label(lng: string, path: string, value: string): unknown {
  const labels = i18n.getResource(lng, "translation", path);
  return labels && typeof labels === "object" ? (labels as Record<string, unknown>)[value] : undefined;
}

describe("every enum value the web shows has a label", () => {
  for (const shown of SHOWN) {
    it(shown.name, () => {
      const missing: string[] = [];
      const raw: string[] = [];
      for (const value of shown.values) {
        for (const { code } of LANGUAGES) {
          const text = label(code, shown.labels, value);
          if (typeof text !== "string" || text.trim() === "") missing.push(`${code}: ${shown.labels}.${value}`);
        }
        const pt = label("pt-BR", shown.labels, value);
        const portuguese = shown.portuguese === "all" || (shown.portuguese ?? []).includes(value);
        if (typeof pt === "string" && !portuguese && pt.trim().toLowerCase() === value.toLowerCase()) {
          raw.push(`pt-BR: ${shown.labels}.${value} is "${pt}"`);
        }
      }
      expect(missing, "values without a label").toEqual([]);
      expect(raw, "values shown raw to a Brazilian user").toEqual([]);
    });
  }
});
