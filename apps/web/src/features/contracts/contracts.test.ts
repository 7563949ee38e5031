import { CONTRACT_MESSAGE_VARIABLES, CONTRACT_VARIABLES, DEFAULT_CONTRACT_TEMPLATE, fillContract } from "@balcao/contract";
import { describe, expect, it } from "vitest";
import { previewValues } from "./lib";

const SETTINGS = {
  contrato_nome1: "Carlos Testemunha",
  contrato_cpf1: "11144477735",
  contrato_nome2: "Dora Testemunha",
  contrato_cpf2: "123.456.789-09",
  timezone: "America/Sao_Paulo",
};
const form = {
  nome: "Maria da Silva",
  cpf: "52998224725",
  email: "maria@cliente.test",
  telefone: "5511987650001",
  campos: { plano: "Fibra 500" },
  settings: SETTINGS,
  now: new Date("2026-03-10T15:00:00Z"),
};

describe("the 'Novo Contrato' preview", () => {
  it("fills every variable the template editor offers, the phone and the witnesses included", () => {
    const all = CONTRACT_VARIABLES.map((v) => `${v}=[{${v}}]`).join("\n");
    const out = fillContract(all, previewValues(form));
    for (const v of CONTRACT_VARIABLES) expect(out, v).not.toContain(`{${v}}`);
    expect(out).toContain("telefone=[5511987650001]");
    expect(out).toContain("testemunha1_nome=[Carlos Testemunha]");
    expect(out).toContain("testemunha1_cpf=[111.444.777-35]");
    expect(out).toContain("testemunha2_cpf=[123.456.789-09]");
    expect(out).toContain("cpf=[529.982.247-25]");
    expect(out).toContain("data=[10 de março de 2026]");
    expect(out).toContain("plano=[Fibra 500]");
    // a field the agent left empty is a line to fill by hand
    expect(out).toContain("valor=[________________]");
  });

  it("the default template's witness lines read filled", () => {
    const out = fillContract(DEFAULT_CONTRACT_TEMPLATE.corpo, previewValues(form));
    expect(out).toContain("Carlos Testemunha — CPF 111.444.777-35");
    expect(out).toContain("telefone 5511987650001");
    expect(out).not.toMatch(/\{[a-z0-9_]+\}/);
  });

  it("names the provider configured in the settings, and prints the PDF's blank where none is", () => {
    const company = {
      empresa_nome: "Provedor Exemplo Telecom Ltda.",
      empresa_cnpj: "11222333000181",
      empresa_endereco: "Rua das Antenas, 100",
    };
    const text = "{empresa} | {cnpj_empresa} | {endereco_empresa}";
    expect(fillContract(text, previewValues({ ...form, settings: { ...SETTINGS, ...company } }))).toBe(
      "Provedor Exemplo Telecom Ltda. | 11.222.333/0001-81 | Rua das Antenas, 100",
    );
    expect(fillContract(text, previewValues(form))).toBe("________________ | ________________ | ________________");
    // an agent's field of the same name does not rename the provider
    expect(fillContract("{empresa}", previewValues({ ...form, campos: { empresa: "Outra" }, settings: { ...SETTINGS, ...company } }))).toBe(
      "Provedor Exemplo Telecom Ltda.",
    );
    expect(DEFAULT_CONTRACT_TEMPLATE.corpo).not.toContain("cabeçalho");
  });

  it("the messages' variables fill when given, and only then", () => {
    const text = CONTRACT_MESSAGE_VARIABLES.map((v) => `{${v}}`).join(" ");
    expect(fillContract(text, { ...previewValues(form), titulo: "Adesão", link: "https://x.test/assinar/abc" })).toBe(
      "Adesão https://x.test/assinar/abc https://x.test/assinar/abc",
    );
    expect(fillContract("{link}", previewValues(form))).toBe("{link}");
  });
});

describe("the status chip", () => {
  it("reads 'Não assinado' (the API keeps the spec's 'Nao assinado'), in English and Spanish too", async () => {
    const { default: i18n, i18nReady, setLanguage } = await import("../../locales");
    await import("./i18n");
    await i18nReady;
    const label = async (lng: "pt-BR" | "en" | "es") => {
      await setLanguage(lng);
      return i18n.t("contracts.statuses.Nao assinado");
    };
    expect(await label("en")).toBe("Not signed");
    expect(await label("es")).toBe("No firmado");
    expect(await label("pt-BR")).toBe("Não assinado");
  });
});
