import { describe, expect, it } from "vitest";
import { matchingQuickAnswers, parseSuggestions } from "../src/modules/ai/prompt.js";
import { Redactor } from "../src/modules/ai/redact.js";

/** What leaves for the AI server: personal data as placeholders, put back in answers; the answer's shapes read leniently. */

describe("redaction", () => {
  it("replaces CPF, CNPJ, e-mail, phone and card numbers by stable placeholders and restores them", () => {
    const r = new Redactor(true);
    const text =
      "CPF 529.982.247-25 (ou 52998224725), CNPJ 11.222.333/0001-81, e-mail Maria@Example.com, fone +55 (49) 99123-4567, cartão 4111 1111 1111 1111";
    const out = r.redact(text);
    expect(out).toBe("CPF [CPF_1] (ou [CPF_1]), CNPJ [CNPJ_1], e-mail [EMAIL_1], fone [TELEFONE_1], cartão [CARTAO_1]");
    expect(r.restore("Confirmo [CPF_1] e [EMAIL_1]; [CPF_9] fica")).toBe("Confirmo 529.982.247-25 e Maria@Example.com; [CPF_9] fica");
  });

  it("tells a bare mobile number from a CPF by the check digits, and redacts both", () => {
    const r = new Redactor(true);
    expect(r.redact("me liga 49991234567")).toBe("me liga [TELEFONE_1]");
    expect(r.redact("protocolo 2024")).toBe("protocolo 2024");
  });

  it("leaves the text alone when aiRedact is off", () => {
    const r = new Redactor(false);
    expect(r.redact("CPF 529.982.247-25")).toBe("CPF 529.982.247-25");
  });
});

describe("answers", () => {
  it("reads JSON suggestions, in a code fence or not, else a numbered list; anything else is no answer", () => {
    expect(parseSuggestions('```json\n{"suggestions":["a","b","c","d"]}\n```')).toEqual(["a", "b", "c"]);
    expect(parseSuggestions("1. Olá!\n2. Pode reiniciar?\n3. Vou verificar.")).toEqual(["Olá!", "Pode reiniciar?", "Vou verificar."]);
    expect(parseSuggestions("Desculpe, não posso ajudar.")).toBeNull();
    expect(parseSuggestions('{"suggestions": []}')).toBeNull();
  });

  it("matches quick answers by what the customer wrote, ignoring common words", () => {
    const msgs = [
      {
        fromMe: false,
        source: "customer",
        body: "Está sem internet, o roteador pisca",
        mediaType: "chat",
        transcription: null,
        isDeleted: false,
      },
    ];
    const qa = [
      { shortcut: "boleto", message: "A segunda via está no site." },
      { shortcut: "roteador", message: "Reinicie o roteador." },
    ];
    expect(matchingQuickAnswers(msgs, qa).map((a) => a.shortcut)).toEqual(["roteador"]);
  });
});
