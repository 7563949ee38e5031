import type { ReactNode } from "react";

/**
 * WhatsApp-style marks: *bold* and ~strike~ (they nest: *~both~*). Markers must hug the text
 * ("2 * 3 * 4" stays as is), and a line break ends a mark.
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
