import { isValidCnpj, isValidCpf } from "@balcao/contract";

/**
 * LGPD: personal numbers and addresses are replaced by placeholders before text leaves for the AI
 * server ([CPF_1], [EMAIL_1], ...), the same value always by the same placeholder, and put back
 * where the placeholders come back in an answer. Pure: the map lives with one request.
 */

export type Placeholders = Map<string, string>;

const KINDS = ["EMAIL", "CNPJ", "CPF", "TELEFONE", "CARTAO"] as const;
type Kind = (typeof KINDS)[number];

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
/**
 * A number as a person types it: digits with spaces, dots, dashes, slashes or parentheses between
 * them, a leading + ("529 982 247 25", "529.982.247-25", "11.222.333/0001-81", "+55 (49) 99123-4567").
 * Not inside a word, an e-mail or a placeholder.
 */
const NUMBERISH = /(?<![\w@.])(?:\+\s?)?\(?\d[\d \t.\-/()\u00a0]*\d(?![\w@])/g;
// the older, stricter shapes: a run that holds several numbers side by side is read with these
const CNPJ = /\b\d{2}[ .]?\d{3}[ .]?\d{3}[ ./]?\d{4}[ .-]?\d{2}\b/g;
const CPF = /\b\d{3}[ .]?\d{3}[ .]?\d{3}[ .-]?\d{2}\b/g;
/** numbers side by side, as people list them: "11 98765-4321 / 11 91234-5678" */
const LIST_SEPARATOR = /(\s+[/|.-]\s+|\s{2,})/;
/** with or without +55, the area code in parentheses or not, the ninth digit, spaces or dashes */
const PHONE = /(?:\+?55[\s-]?)?(?:\(\d{2}\)|\b\d{2})[\s-]?9?\d{4}[\s-]?\d{4}\b/g;
/** 13 to 19 digits, spaces or dashes between them: cards, PIX copia-e-cola numbers, bank lines */
const CARD = /\b(?:\d[ -]?){12,18}\d\b/g;

const onlyDigits = (s: string) => s.replace(/\D/g, "");
/** Brazilian area codes: two digits, neither a zero. */
const DDD = /^[1-9][1-9]/;

/** What a typed number is, by its digits and how they are grouped; null: not personal (a protocol, a date, a price). */
export function kindOfNumber(typed: string): Kind | null {
  const t = typed.trim();
  const d = onlyDigits(t);
  const groups = t
    .split(/[^\d]+/)
    .filter(Boolean)
    .map((g) => g.length);
  const shaped = (...lens: number[]) => groups.length === lens.length && groups.every((g, i) => g === lens[i]);
  if (d.length === 11 && (isValidCpf(d) || shaped(3, 3, 3, 2))) return "CPF";
  if (d.length === 14 && (isValidCnpj(d) || shaped(2, 3, 3, 4, 2))) return "CNPJ";
  // +55, the area code, 8 or 9 digits
  if ((d.length === 12 || d.length === 13) && d.startsWith("55") && DDD.test(d.slice(2))) return "TELEFONE";
  if ((d.length === 10 || d.length === 11) && DDD.test(d) && (d.length === 10 || d[2] === "9")) return "TELEFONE";
  // a number without its area code, only as a phone is written: 9 8765-4321, 98765-4321, 3322-1100
  if ((d.length === 8 || d.length === 9) && /^(?:9[ .-]?)?\d{4,5}[ .-]\d{4}$/.test(t) && !/\//.test(t)) return "TELEFONE";
  if (d.length >= 13 && d.length <= 19) return "CARTAO";
  return null;
}

export class Redactor {
  /** placeholder → original */
  readonly map: Placeholders = new Map();
  private readonly byValue = new Map<string, string>();
  private readonly counts: Record<Kind, number> = { EMAIL: 0, CNPJ: 0, CPF: 0, TELEFONE: 0, CARTAO: 0 };

  constructor(private readonly enabled: boolean) {}

  private token(kind: Kind, original: string): string {
    const key = `${kind}:${kind === "EMAIL" ? original.toLowerCase() : onlyDigits(original)}`;
    const known = this.byValue.get(key);
    if (known) return known;
    this.counts[kind] += 1;
    const t = `[${kind}_${this.counts[kind]}]`;
    this.byValue.set(key, t);
    this.map.set(t, original);
    return t;
  }

  /** The text with its personal data replaced (unchanged when redaction is off). */
  redact(text: string): string {
    if (!this.enabled || !text) return text;
    return text.replace(EMAIL, (m) => this.token("EMAIL", m)).replace(NUMBERISH, (m) => this.number(m, true));
  }

  /** One run of digits: a number as a whole, else the numbers listed in it, else the stricter shapes inside it. */
  private number(run: string, split: boolean): string {
    const kind = kindOfNumber(run);
    if (kind) return this.token(kind, run);
    if (split && LIST_SEPARATOR.test(run))
      return run
        .split(LIST_SEPARATOR)
        .map((part, i) => (i % 2 === 1 || !/\d/.test(part) ? part : this.number(part, false)))
        .join("");
    return this.strict(run);
  }

  /** A run that is not one number as a whole (several side by side, or none): the stricter shapes inside it. */
  private strict(text: string): string {
    return (
      text
        // written with its dots and dash it is a document whatever its check digits; bare digits only when they check
        .replace(CNPJ, (m) => (/\D/.test(m) || isValidCnpj(m) ? this.token("CNPJ", m) : m))
        .replace(CPF, (m) => (/\D/.test(m) || isValidCpf(m) ? this.token("CPF", m) : m))
        .replace(PHONE, (m) => {
          const d = onlyDigits(m);
          return d.length >= 10 && d.length <= 13 ? this.token("TELEFONE", m) : m;
        })
        .replace(CARD, (m) => (onlyDigits(m).length >= 13 ? this.token("CARTAO", m) : m))
    );
  }

  /** An answer with the placeholders it kept put back. */
  restore(text: string): string {
    if (this.map.size === 0) return text;
    return text.replace(/\[(EMAIL|CNPJ|CPF|TELEFONE|CARTAO)_(\d{1,4})\]/g, (m) => this.map.get(m) ?? m);
  }
}
