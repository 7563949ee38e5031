import { describe, expect, it } from "vitest";
import { decodeCsv, previewCsv } from "./csv-preview";

describe("the 'Novo disparo' preview of a CSV", () => {
  it("renders the first rows with the `nome` column as {nome} and {primeiro_nome}, the dialog's message for rows without one", () => {
    const csv =
      "telefone;nome;mensagem\n5511999990001;João da Silva;\n5511999990002;;Oi {nome}, tudo certo?\n5511999990003;Ana;\n5511999990004;Bia;\n";
    const p = previewCsv(csv, "Olá {primeiro_nome}, sua fatura chegou");
    expect(p.total).toBe(4);
    expect(p.hasNames).toBe(true);
    expect(p.rows.map((r) => [r.number, r.name, r.text])).toEqual([
      ["5511999990001", "João da Silva", "Olá João, sua fatura chegou"],
      ["5511999990002", "", "Oi, tudo certo?"],
      ["5511999990003", "Ana", "Olá Ana, sua fatura chegou"],
    ]);
  });

  it("a file without titles is number,message,url: no name is guessed from a fourth column", () => {
    const p = previewCsv("5511999990001,Oi {nome},https://x.example/a.png,Carlos\n", "");
    expect(p.hasNames).toBe(false);
    expect(p.rows).toEqual([
      { label: "line.1", number: "5511999990001", message: "Oi {nome}", url: "https://x.example/a.png", name: "", text: "Oi" },
    ]);
  });

  it("reads what Excel saves in Brazil (Windows-1252) as well as UTF-8", () => {
    const latin1 = new Uint8Array([0x6e, 0x6f, 0x6d, 0x65, 0x0a, 0x4a, 0x6f, 0xe3, 0x6f]); // "nome\nJoão"
    expect(decodeCsv(latin1.buffer)).toBe("nome\nJoão");
    expect(decodeCsv(new TextEncoder().encode("\uFEFFnome\nJoão").buffer as ArrayBuffer)).toBe("nome\nJoão");
  });
});
