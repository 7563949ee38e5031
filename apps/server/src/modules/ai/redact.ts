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
const CNPJ = /\b\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}\b/g;
const CPF = /\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b/g;
/** with or without +55, the area code in parentheses or not, the ninth digit, spaces or dashes */
const PHONE = /(?:\+?55[\s-]?)?(?:\(\d{2}\)|\b\d{2})[\s-]?9?\d{4}[\s-]?\d{4}\b/g;
/** 13 to 19 digits, spaces or dashes between them: cards, PIX copia-e-cola numbers, bank lines */
const CARD = /\b(?:\d[ -]?){12,18}\d\b/g;

const onlyDigits = (s: string) => s.replace(/\D/g, "");

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
    return (
      text
        .replace(EMAIL, (m) => this.token("EMAIL", m))
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
