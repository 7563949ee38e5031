import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import i18n from "../../locales";
import "./i18n";
import { Transcription } from "./components/Transcription";

describe("a voice note's transcription", () => {
  it("shows the text marked 'transcrição automática'", async () => {
    await i18n.changeLanguage("pt-BR");
    const html = renderToStaticMarkup(<Transcription transcription="Meu roteador está piscando vermelho." />);
    expect(html).toContain("Meu roteador está piscando vermelho.");
    expect(html).toContain("transcrição automática");
  });
  it("shows nothing until there is one", () => {
    expect(renderToStaticMarkup(<Transcription transcription={null} />)).toBe("");
    expect(renderToStaticMarkup(<Transcription />)).toBe("");
  });
});
