import { CONTRACT_BLANK, type ContractCompany, hasCompany } from "@balcao/contract";
import { type PDFFont, PDFDocument, type PDFImage, type PDFPage, rgb, StandardFonts } from "@cantoo/pdf-lib";

/**
 * The contract's PDF: generated from the filled text (A4, the provider's logo on top, the contract
 * background and the watermark when set, the provider's identity as the first page's header when
 * set, a footer with the contract number on every page, the signature block with the parties and
 * the witnesses), and, once signed, the same file with an evidence page
 * appended (reference e-signature.md §3, §5). Each line of the text starts a line of the page,
 * long ones wrap to the width, pages break at the bottom margin. Standard fonts (WinAnsi, nothing
 * to ship or embed): a character they cannot draw is replaced by its plain letter, an emoji left
 * out, anything else by '?'.
 */

export interface PdfImages {
  logo?: Buffer;
  fundo?: Buffer;
  marcaAgua?: Buffer;
}

export interface ContractPdfInput {
  id: number;
  titulo: string;
  texto: string;
  nome: string;
  cpf: string;
  witnesses: { nome: string; cpf: string }[];
  /** the provider (CONTRATADA): its header on the first page when any of it is set, a blank in the signature block where not */
  empresa?: ContractCompany;
  images: PdfImages;
  createdAt: Date;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const SIZE = 10.5;
const LEADING = 15;

/** Letters without a decomposition that the standard fonts lack, and the plain letter that stands for them. */
const PLAIN: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", ı: "i", ħ: "h", Ħ: "H", ŀ: "l", Ŀ: "L" };

/**
 * What the standard font (WinAnsi) can draw of one line: a character it lacks becomes its plain
 * letter ("ễ" → "ê", "ị" → "i", "Ł" → "L"), an emoji is left out, anything else becomes '?'. Line breaks are laid out by `wrap`, never drawn.
 */
export function drawable(font: PDFFont, text: string): string {
  const set = new Set(font.getCharacterSet());
  const has = (ch: string) => set.has(ch.codePointAt(0) ?? 0);
  let out = "";
  for (const ch of text
    .replace(/[\r\n]+/g, " ")
    // emoji (common in WhatsApp names) are left out with the space before them
    .replace(/\s*(?:\p{Extended_Pictographic}|[\u200d\ufe0f\u{1f3fb}-\u{1f3ff}])+/gu, "")
    .replace(/\t/g, "  ")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')) {
    if (has(ch)) {
      out += ch;
      continue;
    }
    // composed first (e + ◌̂ → ê), then the base letter alone
    const base = ch.normalize("NFD");
    const composed = base.replace(/\p{M}+$/u, (m) => m.slice(0, 1)).normalize("NFC");
    const plain = PLAIN[ch] ?? base.replace(/\p{M}/gu, "");
    out += [...composed].length === 1 && has(composed) ? composed : plain && [...plain].every(has) ? plain : "?";
  }
  return out;
}

/** Breaks a text into lines that fit `width`: each of its lines starts a line, long ones wrap at spaces. */
export function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const para = drawable(font, raw).replace(/\s+$/, "");
    if (!para.trim()) {
      lines.push("");
      continue;
    }
    let line = "";
    for (const word of para.split(/ +/)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width) {
        line = next;
        continue;
      }
      if (line) lines.push(line);
      // a word longer than the line is cut
      let w = word;
      while (font.widthOfTextAtSize(w, size) > width) {
        let cut = w.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(w.slice(0, cut), size) > width) cut--;
        lines.push(w.slice(0, cut));
        w = w.slice(cut);
      }
      line = w;
    }
    lines.push(line);
  }
  return lines;
}

async function embed(doc: PDFDocument, data: Buffer | undefined): Promise<PDFImage | undefined> {
  if (!data || data.length < 8) return undefined;
  try {
    if (data[0] === 0x89 && data[1] === 0x50) return await doc.embedPng(data);
    if (data[0] === 0xff && data[1] === 0xd8) return await doc.embedJpg(data);
  } catch {
    // an image that cannot be read is left out: the contract still goes
  }
  return undefined;
}

function fitInside(img: PDFImage, maxW: number, maxH: number) {
  const k = Math.min(maxW / img.width, maxH / img.height, 1);
  return { width: img.width * k, height: img.height * k };
}

export async function buildContractPdf(input: ContractPdfInput): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(drawableTitle(input.titulo));
  doc.setCreator("Balcão");
  doc.setProducer("Balcão");
  doc.setCreationDate(input.createdAt);
  doc.setModificationDate(input.createdAt);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [logo, fundo, marca] = [
    await embed(doc, input.images.logo),
    await embed(doc, input.images.fundo),
    await embed(doc, input.images.marcaAgua),
  ];
  const width = A4[0] - 2 * MARGIN;

  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const newPage = () => {
    page = doc.addPage(A4);
    pages.push(page);
    if (fundo) page.drawImage(fundo, { x: 0, y: 0, width: A4[0], height: A4[1] });
    if (marca) {
      const s = fitInside(marca, A4[0] * 0.6, A4[1] * 0.6);
      page.drawImage(marca, { x: (A4[0] - s.width) / 2, y: (A4[1] - s.height) / 2, ...s, opacity: 0.12 });
    }
    y = A4[1] - MARGIN;
    if (logo) {
      const s = fitInside(logo, 160, 56);
      page.drawImage(logo, { x: MARGIN, y: y - s.height, ...s });
      y -= s.height + 18;
    }
  };
  const line = (text: string, f = font, size = SIZE) => {
    if (y < MARGIN + 30) newPage();
    if (text) page.drawText(text, { x: MARGIN, y: y - size, size, font: f, color: rgb(0.1, 0.1, 0.1) });
    y -= size === SIZE ? LEADING : size + 6;
  };

  newPage();
  // the provider's header: only what is set, and no header at all when nothing is (the text says nothing of one)
  const empresa = input.empresa;
  if (hasCompany(empresa)) {
    const head = (text: string, f: PDFFont, size: number) => {
      for (const l of wrap(f, size, text, width)) {
        if (l) page.drawText(l, { x: MARGIN, y: y - size, size, font: f, color: rgb(0.1, 0.1, 0.1) });
        y -= size + 3;
      }
    };
    if (empresa.nome) head(empresa.nome, bold, 11);
    if (empresa.cnpj) head(`CNPJ: ${empresa.cnpj}`, font, 9);
    if (empresa.endereco) head(empresa.endereco, font, 9);
    y -= 5;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    y -= 14;
  }
  for (const l of wrap(bold, 14, input.titulo, width)) line(l, bold, 14);
  y -= 6;
  for (const l of wrap(font, SIZE, input.texto, width)) line(l);

  // the signature block: the customer, the provider (a blank to fill where not set) and the witnesses
  y -= 20;
  if (y < MARGIN + 30 + 60 * (2 + input.witnesses.length)) newPage();
  const sign = (label: string, nome: string, doc: string) => {
    line("_______________________________________________");
    for (const l of wrap(bold, SIZE, `${label}: ${nome}`, width)) line(l, bold);
    line(doc);
    y -= 14;
  };
  sign("CONTRATANTE", input.nome, `CPF: ${input.cpf}`);
  sign("CONTRATADA", empresa?.nome || CONTRACT_BLANK, `CNPJ: ${empresa?.cnpj || CONTRACT_BLANK}`);
  for (const [i, w] of input.witnesses.entries()) sign(`TESTEMUNHA ${i + 1}`, w.nome, `CPF: ${w.cpf}`);

  pages.forEach((p, i) => {
    p.drawText(`Contrato nº ${input.id} · página ${i + 1} de ${pages.length}`, {
      x: MARGIN,
      y: 28,
      size: 8,
      font,
      color: rgb(0.4, 0.4, 0.4),
    });
  });
  return Buffer.from(await doc.save());
}

function drawableTitle(t: string): string {
  return t.replace(/[^\u0020-\u00ff]/g, "?");
}

export interface EvidenceInput {
  contractId: number;
  titulo: string;
  nome: string;
  cpf: string;
  email: string;
  telefone: string;
  atendente: string;
  originalSha256: string;
  templateVersion: number;
  sentAt: string;
  firstViewAt: string;
  signedAt: Date;
  timeZone: string;
  ip: string;
  userAgent: string;
  nameTyped: string;
  witnesses: { nome: string; cpf: string }[];
}

export const LEGAL_BASIS =
  "Base legal: documento assinado eletronicamente entre particulares, nos termos do art. 10, § 2º, da Medida Provisória " +
  "nº 2.200-2/2001, que admite outros meios de comprovação da autoria e da integridade de documentos em forma eletrônica, " +
  "inclusive os que não utilizem certificados emitidos pela ICP-Brasil, desde que admitidos pelas partes como válidos. " +
  "O signatário aceitou expressamente este meio ao confirmar os cinco primeiros dígitos do seu CPF, digitar o seu nome " +
  "completo e marcar 'Li e aceito' a partir do link pessoal enviado ao seu WhatsApp. Classificação (Lei 14.063/2020, art. 4º, " +
  "usada como referência): assinatura eletrônica simples, com registro de integridade (SHA-256) que torna detectável " +
  "qualquer alteração posterior do documento.";

/** Said only when the contract names witnesses (the settings' contrato_nome1/2): otherwise nothing about them. */
export const WITNESS_NOTE =
  "Testemunhas: o título executivo extrajudicial do art. 784, III, do CPC pede a assinatura de duas testemunhas; " +
  "o § 4º do mesmo artigo (Lei 14.620/2023) as dispensa em documentos eletrônicos cuja integridade seja conferida por " +
  "provedor de assinatura. As testemunhas indicadas constam da última página do contrato.";

/** The signed PDF: the original pages, a footer stamp on each, and the evidence page at the end. */
export async function appendEvidencePage(original: Buffer, ev: EvidenceInput): Promise<Buffer> {
  const doc = await PDFDocument.load(original);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  const stamp = `Assinado eletronicamente por ${drawable(font, ev.nome)} em ${ev.signedAt.toISOString()} · SHA-256 do original: ${ev.originalSha256.slice(0, 16)}…`;
  for (const p of doc.getPages()) {
    p.drawText(drawable(font, stamp), { x: MARGIN, y: 16, size: 6.5, font, color: rgb(0.2, 0.35, 0.2) });
  }
  const page = doc.addPage(A4);
  const width = A4[0] - 2 * MARGIN;
  let y = A4[1] - MARGIN;
  const put = (text: string, f = font, size = 10) => {
    for (const l of wrap(f, size, text, width)) {
      if (l) page.drawText(l, { x: MARGIN, y: y - size, size, font: f, color: rgb(0.1, 0.1, 0.1) });
      y -= size + 4;
    }
  };
  const local = new Intl.DateTimeFormat("pt-BR", { timeZone: ev.timeZone, dateStyle: "short", timeStyle: "medium" });
  const both = (iso: string) => (iso ? `${local.format(new Date(iso))} (${ev.timeZone}) · ${iso}` : "—");
  put("REGISTRO DE ASSINATURA ELETRÔNICA", bold, 14);
  y -= 6;
  put(`Contrato nº ${ev.contractId} — ${ev.titulo} (modelo versão ${ev.templateVersion})`, bold);
  y -= 4;
  const rows: [string, string][] = [
    ["Signatário", ev.nome],
    ["CPF", ev.cpf],
    ["Nome digitado no aceite", ev.nameTyped],
    ["Conferência de CPF", "5 primeiros dígitos conferidos com o cadastro"],
    ["WhatsApp do link", ev.telefone || "—"],
    ["E-mail", ev.email || "—"],
    ["Enviado por", ev.atendente || "—"],
    ["Link enviado em", both(ev.sentAt)],
    ["Primeira visualização", both(ev.firstViewAt)],
    ["Assinado em (hora do servidor)", both(ev.signedAt.toISOString())],
    ["Endereço IP", ev.ip],
    ["Navegador (user agent)", ev.userAgent || "—"],
  ];
  for (const [k, v] of rows) put(`${k}: ${v}`);
  y -= 4;
  put("SHA-256 do documento original (o exibido ao signatário):", bold);
  put(ev.originalSha256, mono, 9);
  y -= 4;
  if (ev.witnesses.length) {
    put(`Testemunhas indicadas: ${ev.witnesses.map((w) => `${w.nome} (CPF ${w.cpf})`).join("; ")}`);
    y -= 4;
  }
  put(LEGAL_BASIS, font, 9);
  y -= 4;
  if (ev.witnesses.length) {
    put(WITNESS_NOTE, font, 9);
    y -= 4;
  }
  put(
    "O SHA-256 deste arquivo final (com esta página) fica registrado no sistema do provedor junto às evidências acima; " +
      "qualquer alteração do arquivo muda esse valor.",
    font,
    9,
  );
  return Buffer.from(await doc.save());
}
