import { describe, expect, it } from "vitest";
import { pt } from "../locales/pt";
import { errorMessage } from "./errors";
import { ApiError } from "./http";

/** Looks keys up in the Brazilian Portuguese catalogue, like i18next would. */
const translate = (key: string) => {
  let node: unknown = pt;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string" ? node : undefined;
};

describe("error toast text", () => {
  it("translates a known ERR_ code", () => {
    expect(errorMessage(new ApiError(409, "ERR_DUPLICATED_CONTACT"), translate)).toBe("Já existe um contato com este número.");
  });
  it("shows the raw text when the code is unknown", () => {
    expect(errorMessage(new ApiError(418, "ERR_SOMETHING_NEW"), translate)).toBe("ERR_SOMETHING_NEW");
    expect(errorMessage(new ApiError(502, "Bad Gateway"), translate)).toBe("Bad Gateway");
    expect(errorMessage(new Error("Failed to fetch"), translate)).toBe("Failed to fetch");
  });
  it("falls back to '500 Erro Interno no Servidor' with no text", () => {
    expect(errorMessage(new ApiError(500, undefined), translate)).toBe("500 Erro Interno no Servidor");
    expect(errorMessage(undefined, translate)).toBe("500 Erro Interno no Servidor");
    expect(errorMessage(new ApiError(500, undefined), () => undefined)).toBe("500 Erro Interno no Servidor");
  });
  it("every catalogue code of the contract has a text in each language", async () => {
    const { ERROR_CODES } = await import("@balcao/contract");
    const { en } = await import("../locales/en");
    const { es } = await import("../locales/es");
    for (const lang of [pt, en, es]) {
      const missing = ERROR_CODES.filter((c) => !(lang.errors as Record<string, string>)[c]);
      expect(missing).toEqual([]);
    }
  });
});
