import type { ReactNode } from "react";

/**
 * WhatsApp-style marks: *bold* and ~strike~ (they nest: *~both~*). Markers must hug the text
 * ("2 * 3 * 4" stays as is), and a line break ends a mark. Web addresses are links that open in a
 * new tab, without giving the page a handle on ours (rel=noopener noreferrer).
 */
export function formatText(text: string): ReactNode[] {
  return parse(text, 0);
}

const MARKS: Record<string, "strong" | "s"> = { "*": "strong", "~": "s" };

function parse(text: string, depth: number): ReactNode[] {
  const out: ReactNode[] = [];
  let buf = "";
  let i = 0;
  let key = 0;
  while (i < text.length) {
    const url = linkAt(text, i);
    if (url) {
      if (buf) out.push(buf);
      buf = "";
      out.push(
        <a key={`${depth}-${key++}`} href={url.startsWith("www.") ? `https://${url}` : url} target="_blank" rel="noopener noreferrer">
          {url}
        </a>,
      );
      i += url.length;
      continue;
    }
    const c = text[i];
    const tag = MARKS[c];
    if (tag && depth < 4 && text[i + 1] && text[i + 1] !== " " && text[i + 1] !== c) {
      const end = findClose(text, i + 1, c);
      if (end > i + 1) {
        if (buf) out.push(buf);
        buf = "";
        const Tag = tag;
        out.push(<Tag key={`${depth}-${key++}`}>{parse(text.slice(i + 1, end), depth + 1)}</Tag>);
        i = end + 1;
        continue;
      }
    }
    buf += c;
    i++;
  }
  if (buf) out.push(buf);
  return out;
}

function findClose(text: string, from: number, c: string): number {
  for (let j = from; j < text.length; j++) {
    if (text[j] === "\n") return -1;
    if (text[j] === c && text[j - 1] !== " ") return j;
  }
  return -1;
}

const URL_AT = /(?:https?:\/\/|www\.)[^\s<>"]+/iy;

/** The web address that starts at `i` (at a word's start), without the punctuation that ends its sentence. */
export function linkAt(text: string, i: number): string | undefined {
  const c = text[i];
  if (c !== "h" && c !== "H" && c !== "w" && c !== "W") return undefined;
  if (i > 0 && /[\p{L}\p{N}_/]/u.test(text[i - 1])) return undefined;
  URL_AT.lastIndex = i;
  const m = URL_AT.exec(text);
  if (!m) return undefined;
  let url = m[0];
  // "(see https://x.com/a)." and "*https://x.com*": the closing marks are the text's, not the address's
  for (;;) {
    const last = url[url.length - 1];
    if (".,;:!?'*~".includes(last)) url = url.slice(0, -1);
    else if (last === ")" && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) url = url.slice(0, -1);
    else break;
  }
  return /^(?:https?:\/\/|www\.)[^.]+\./i.test(url) || /^https?:\/\/[^/]+/i.test(url) ? url : undefined;
}
