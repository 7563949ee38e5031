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

  it("redacts a CPF, a CNPJ and a phone in every spelling a person types: spaces, dots, dashes, slashes, mixed", () => {
    const leaks = (text: string, ...values: string[]) => {
      const out = new Redactor(true).redact(text);
      for (const v of values) expect(out, `${text} → ${out}`).not.toContain(v);
      return out;
    };
    expect(leaks("meu cpf é 529 982 247 25", "529 982 247 25")).toBe("meu cpf é [CPF_1]");
    leaks("CPF: 529.982.247 25, ou 529982247-25, ou 529 982.247-25", "529", "247");
    leaks("cnpj da empresa 11 222 333 0001 81 / 11.222.333/000181 / 11222333/0001-81 / 11.222.333.0001.81", "11 222 333", "0001");
    leaks("me chama no 11 98765 4321 ou (11)98765-4321 ou +55 11 98765.4321 ou 9 8765-4321", "98765", "8765");
    leaks("o telefone do meu vizinho é (49) 3322-1100, o meu é 49 99123-4567", "3322", "99123");
    leaks("wa.me/5511987654321 e +5511987654321", "5511987654321");
    // a customer's real message, as typed on a phone
    leaks(
      "Boa noite! Sou a titular, cpf 529 982 247-25, a internet caiu de novo. Pode ligar pro meu marido no 11 9 8765 4321 depois das 18h",
      "529 982",
      "8765 4321",
    );
  });

  it("leaves what is not personal: protocols, dates, prices, plan speeds", () => {
    const text = "protocolo 20241225001, venceu dia 25/12/2024, valor R$ 1.234,56, plano 300 mega, pedido 123 456";
    expect(new Redactor(true).redact(text)).toBe(text);
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
