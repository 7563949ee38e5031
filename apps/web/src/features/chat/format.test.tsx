import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatText, linkAt } from "./format";

const html = (text: string) => renderToStaticMarkup(<>{formatText(text)}</>);

describe("message text", () => {
  it("web addresses are links to a new tab, with rel=noopener noreferrer", () => {
    expect(html("veja https://exemplo.com.br/fatura?id=1 agora")).toBe(
      'veja <a href="https://exemplo.com.br/fatura?id=1" target="_blank" rel="noopener noreferrer">https://exemplo.com.br/fatura?id=1</a> agora',
    );
    expect(html("www.provedor.net")).toBe(
      '<a href="https://www.provedor.net" target="_blank" rel="noopener noreferrer">www.provedor.net</a>',
    );
  });
  it("the sentence's punctuation and marks stay outside the link", () => {
    expect(linkAt("(ver https://a.com/x).", 5)).toBe("https://a.com/x");
    expect(linkAt("https://pt.wikipedia.org/wiki/Brasil_(país)", 0)).toBe("https://pt.wikipedia.org/wiki/Brasil_(país)");
    expect(html("*https://a.com*")).toBe(
      '<strong><a href="https://a.com" target="_blank" rel="noopener noreferrer">https://a.com</a></strong>',
    );
  });
  it("words that only look like addresses are text", () => {
    expect(html("whatsapp e http")).toBe("whatsapp e http");
    expect(html("meuhttps://x.com")).toBe("meuhttps://x.com");
    expect(html("*negrito* e ~riscado~")).toBe("<strong>negrito</strong> e <s>riscado</s>");
  });
});
