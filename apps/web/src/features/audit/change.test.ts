import { afterAll, beforeAll, describe, expect, it } from "vitest";
import i18n, { setLanguage } from "../../locales";
import { loadSettingsTexts } from "../settings";
import { AUDIT_TARGET_KINDS, type AuditNames, changeText, targetText } from "./describe";
import "./i18n";

const t = i18n.t.bind(i18n);
const names: AuditNames = {
  user: (id) => ({ 2: "Ana Souza" })[id],
  queue: (id) => ({ 1: "Suporte", 4: "Financeiro" })[id],
  connection: (id) => ({ 7: "WhatsApp Loja" })[id],
};

beforeAll(async () => {
  await loadSettingsTexts();
  await setLanguage("pt-BR");
});
afterAll(() => setLanguage("pt-BR"));

describe("an audit entry's target", () => {
  it("reads as words: the kind and its number, a user's name, a setting's label", () => {
    expect(targetText("ticket:3", t, names)).toBe("Atendimento #3");
    expect(targetText("contact:5", t, names)).toBe("Contato #5");
    expect(targetText("message:9", t, names)).toBe("Mensagem #9");
    expect(targetText("contract:12", t, names)).toBe("Contrato #12");
    expect(targetText("user:2", t, names)).toBe("Ana Souza");
    expect(targetText("user:8", t, names)).toBe("Usuário #8");
    expect(targetText("setting:aiBaseUrl", t, names)).toBe("URL base (compatível com OpenAI)");
    expect(targetText("setting:pixKeyType", t, names)).toBe("Tipo da chave PIX");
    expect(targetText("disparos:3f2a9c1e-0b1d-4c7e-9a55-1f0e2d3c4b5a", t, names)).toBe("Lote de disparos 3f2a9c1e");
    expect(targetText("disparos", t, names)).toBe("Disparos");
    expect(targetText("settings", t, names)).toBe("Configurações");
    expect(targetText("media", t, names)).toBe("Arquivos de mídia");
    expect(targetText("", t, names)).toBe("—");
  });

  it("has a label for every kind the server writes, in pt, en and es", async () => {
    for (const lng of ["pt-BR", "en", "es"] as const) {
      await setLanguage(lng);
      const labels = i18n.getResource(lng, "translation", "audit.targets") as Record<string, string>;
      for (const kind of AUDIT_TARGET_KINDS) expect(labels[kind], `${lng}: audit.targets.${kind}`).toBeTruthy();
    }
    await setLanguage("pt-BR");
  });
});

describe("what an audit entry changed", () => {
  it("a transfer: status words as the tickets screen says them, names for ids, 'ninguém' for nobody, unchanged keys left out", () => {
    expect(
      changeText(
        {
          action: "ticket.transfer",
          before: { queueId: 1, userId: 2, status: "open" },
          after: { queueId: 4, userId: null, status: "pending" },
        },
        t,
        names,
      ),
    ).toBe("Setor: Suporte → Financeiro; Atendente: Ana Souza → ninguém; Status: Atendendo → Aguardando");
    expect(
      changeText(
        { action: "ticket.transfer", before: { queueId: 1, userId: 2, status: "open" }, after: { queueId: 1, userId: 9, status: "open" } },
        t,
        names,
      ),
    ).toBe("Atendente: Ana Souza → Usuário #9");
  });

  it("a contact's edit names the fields changed, never their values", () => {
    expect(changeText({ action: "contact.update", after: { fields: ["name", "number"], extraInfo: ["CPF"] } }, t, names)).toBe(
      "Campos: Nome, Número, CPF",
    );
    expect(changeText({ action: "contact.update", after: { fields: ["email"] } }, t, names)).toBe("Campos: E-mail");
  });

  it("a setting shows its values as the settings screen does (switches, choices, secrets, empty)", () => {
    const setting = (key: string, from: string, to: string) =>
      changeText({ action: "settings.update", before: { key, value: from }, after: { key, value: to } }, t, names);
    expect(setting("autoCloseHours", "24", "12")).toBe("24 → 12");
    expect(setting("aiRedact", "enabled", "disabled")).toBe("Ligado → Desligado");
    expect(setting("pixKeyType", "cnpj", "evp")).toBe("CNPJ → Chave aleatória");
    expect(setting("mail_smtp_secure", "tls", "none")).toBe("TLS (STARTTLS) → Nenhuma");
    expect(setting("mail_password", "[redacted]", "[redacted]")).toBe("(oculto) → (oculto)");
    expect(setting("urlPix", "", "https://pix.example.com")).toBe("(vazio) → https://pix.example.com");
  });

  it("a user's change: profile words, queue names, the password as a sentence", () => {
    expect(
      changeText(
        {
          action: "user.update",
          before: { profile: "user", queueIds: [1] },
          after: { profile: "superv", queueIds: [1, 4], passwordChanged: true },
        },
        t,
        names,
      ),
    ).toBe("Perfil: Atendente → Supervisor; Setores: Suporte → Suporte, Financeiro; Senha alterada");
    expect(
      changeText({ action: "user.create", after: { name: "Carla", email: "c@example.com", profile: "admin", queueIds: [] } }, t, names),
    ).toBe("Nome: Carla; E-mail: c@example.com; Perfil: Administrador; Setores: —");
    expect(changeText({ action: "settings.unlock", after: { ok: false } }, t, names)).toBe("Senha incorreta");
  });

  it("ids that name themselves, enum values in words, counts, filters", () => {
    expect(changeText({ action: "message.delete", before: { ticketId: 3, source: "agent", mediaType: "image" } }, t, names)).toBe(
      "Atendimento #3; Origem: Atendente; Tipo: Imagem",
    );
    expect(changeText({ action: "contract.delete", before: { ticketId: 3, titulo: "Adesão", status: "Nao assinado" } }, t, names)).toBe(
      "Atendimento #3; Título: Adesão; Status: Não assinado",
    );
    expect(changeText({ action: "media.purge", after: { files: 1200, days: 90 } }, t, names)).toBe("Arquivos: 1.200; Dias: 90");
    expect(changeText({ action: "audit.export", after: { action: null, userId: null, from: null, to: null } }, t, names)).toBe(
      "Sem filtros",
    );
    expect(changeText({ action: "audit.export", after: { action: "auth.login", userId: "2", from: null, to: null } }, t, names)).toBe(
      "Ação: Entrou no sistema; Usuário: Ana Souza",
    );
    expect(changeText({ action: "disparo.start", after: { whatsappId: 7, rows: 3, cancelled: 0 } }, t, names)).toBe(
      "Conexão: WhatsApp Loja; Mensagens: 3; Canceladas: 0",
    );
    expect(changeText({ action: "auth.login" }, t, names)).toBe("");
  });

  it("in English and Spanish too", async () => {
    const transfer = { action: "ticket.transfer", before: { userId: 2, status: "open" }, after: { userId: null, status: "closed" } };
    await setLanguage("en");
    expect(targetText("ticket:3", t, names)).toBe("Ticket #3");
    expect(changeText(transfer, t, names, "en")).toBe("Agent: Ana Souza → nobody; Status: Assigned → Resolved");
    await setLanguage("es");
    expect(targetText("ticket:3", t, names)).toBe("Atención #3");
    expect(changeText(transfer, t, names, "es")).toBe("Agente: Ana Souza → nadie; Estado: Atendiendo → Resuelto");
    await setLanguage("pt-BR");
  });
});
