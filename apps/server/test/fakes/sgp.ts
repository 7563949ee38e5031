import { type FakeRequest, json, startFake, wait } from "./http-fake.js";

/**
 * A fake SGP (TSMX) URA API built from the shapes in shared/reference/sgp.md: app + token in the
 * body, `/api/ura/…` (or `/ws/ura/…` for an old install), consultacliente, titulos, fatura2via,
 * pagamento/pix, liberacaopromessa, verificaacesso, chamado, planoscontas. Knobs for what tests
 * need: a slow path, a failing path (500 or an HTML page with 200), the old prefix.
 */

export interface SgpContract {
  contratoId: number;
  clienteId: number;
  razaoSocial: string;
  cpfCnpj: string;
  telefones: (string | { tipoContato: string; contato: string })[];
  contratoStatus: number;
  contratoStatusDisplay: string;
  planointernet: string;
  endereco_logradouro: string;
  endereco_numero: string;
  endereco_bairro: string;
  endereco_cidade: string;
  /** verificaacesso status code */
  acesso: number;
  titulos: {
    id: number;
    status: "aberto" | "pago" | "cancelado";
    valor: number;
    dataVencimento: string;
    linhaDigitavel: string;
    codigoPix: string | null;
    link: string;
  }[];
  /** what liberacaopromessa answers */
  promessa: { liberado: boolean; liberado_dias: number; msg: string };
}

export interface FakeSgpOptions {
  app?: string;
  token?: string;
  prefix?: "/api/ura" | "/ws/ura";
  contracts?: SgpContract[];
  /** an install that only knows the old unlock call (promessapagamento) */
  oldUnlock?: boolean;
}

export const SGP_APP = "balcao";
export const SGP_TOKEN = "sgp-secret-token-123";

export function sampleSgpContracts(): SgpContract[] {
  return [
    {
      contratoId: 1001,
      clienteId: 501,
      razaoSocial: "MARIA DA SILVA",
      cpfCnpj: "529.982.247-25",
      telefones: [{ tipoContato: "Celular", contato: "(49) 99123-4567" }],
      contratoStatus: 4,
      contratoStatusDisplay: " Suspenso ",
      planointernet: "FIBRA 300M",
      endereco_logradouro: "Rua das Flores",
      endereco_numero: "10",
      endereco_bairro: "Centro",
      endereco_cidade: "Chapecó",
      acesso: 3,
      titulos: [
        // order as integrators warn: newest first, paid and cancelled mixed in
        {
          id: 9003,
          status: "aberto",
          valor: 99.9,
          dataVencimento: "2026-11-10",
          linhaDigitavel: "23790.00009 00000.000003 00000.000000 3 99990000009990",
          codigoPix: null,
          link: "https://sgp.example/boleto/9003",
        },
        { id: 9002, status: "pago", valor: 99.9, dataVencimento: "2026-10-10", linhaDigitavel: "x", codigoPix: null, link: "x" },
        {
          id: 9001,
          status: "aberto",
          valor: 89.9,
          dataVencimento: "2026-09-10",
          linhaDigitavel: "23790.00009 00000.000003 00000.000000 1 99990000008990",
          codigoPix:
            "00020126360014br.gov.bcb.pix011412345678000195520400005303986540589.905802BR5924PROVEDOR EXEMPLO TELECOM6015SAO MIGUEL DO O62120508FAT123456304DB0C",
          link: "https://sgp.example/boleto/9001",
        },
        { id: 9000, status: "cancelado", valor: 10, dataVencimento: "2026-08-10", linhaDigitavel: "x", codigoPix: null, link: "x" },
      ],
      promessa: { liberado: true, liberado_dias: 3, msg: "Liberado com sucesso" },
    },
    {
      contratoId: 2002,
      clienteId: 777,
      razaoSocial: "EMPRESA EXEMPLO LTDA",
      cpfCnpj: "12.345.678/0001-95",
      telefones: [],
      contratoStatus: 1,
      contratoStatusDisplay: "Ativo",
      planointernet: "EMPRESA 500M",
      endereco_logradouro: "Av. Brasil",
      endereco_numero: "500",
      endereco_bairro: "Industrial",
      endereco_cidade: "Xanxerê",
      acesso: 1,
      titulos: [
        {
          id: 9100,
          status: "aberto",
          valor: 250,
          dataVencimento: "2026-12-05",
          linhaDigitavel: "34191.00000 00000.000000 00000.000000 5 99990000025000",
          codigoPix: null,
          link: "https://sgp.example/boleto/9100",
        },
      ],
      promessa: { liberado: false, liberado_dias: 0, msg: "Contrato já utilizou a liberação este mês" },
    },
  ];
}

export async function startFakeSgp(opts: FakeSgpOptions = {}) {
  const app = opts.app ?? SGP_APP;
  const token = opts.token ?? SGP_TOKEN;
  const prefix = opts.prefix ?? "/api/ura";
  const contracts = opts.contracts ?? sampleSgpContracts();
  const knobs = {
    /** path suffix → delay in ms before answering */
    slow: new Map<string, number>(),
    /** path suffix → how it fails */
    fail: new Map<string, "500" | "html">(),
  };
  const digits = (s: unknown) => String(s ?? "").replace(/\D/g, "");
  const contractView = (c: SgpContract) => {
    const { titulos: _t, promessa: _p, acesso: _a, ...rest } = c;
    return rest;
  };
  const byContract = (b: FakeRequest["body"]) => contracts.find((c) => String(c.contratoId) === String(b.contrato));

  const fake = await startFake(async (req, res) => {
    if (!req.path.startsWith(`${prefix}/`)) return json(res, 404, { detail: "Not found." });
    const path = req.path.slice(prefix.length + 1).replace(/\/+$/, "");
    const delay = [...knobs.slow].find(([p]) => path.startsWith(p))?.[1];
    if (delay) await wait(delay);
    const failure = [...knobs.fail].find(([p]) => path.startsWith(p))?.[1];
    if (failure === "500") return json(res, 500, { detail: "erro interno" });
    if (failure === "html")
      return void res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Fatal error: PHP</body></html>");
    if (req.method !== "POST") return json(res, 405, { detail: "Method not allowed" });
    if (req.query.has("token") || req.query.has("app")) return json(res, 400, { detail: "credentials in the query string" });
    if (req.body.app !== app || req.body.token !== token) return json(res, 403, { detail: "Token ou App inválido" });
    const b = req.body;
    switch (true) {
      case path === "consultacliente": {
        if (b.cpf_cnpj !== undefined) return json(res, 200, { msg: "CPF/CNPJ ou Contrato ID Não informados", contratos: [] });
        let list = contracts;
        if (b.cpfcnpj) list = list.filter((c) => digits(c.cpfCnpj) === digits(b.cpfcnpj));
        else if (b.telefone)
          list = list.filter((c) =>
            c.telefones.some((t) => digits(typeof t === "string" ? t : t.contato).endsWith(digits(b.telefone).slice(-8))),
          );
        else if (b.contrato) list = list.filter((c) => String(c.contratoId) === String(b.contrato));
        else return json(res, 200, { msg: "CPF/CNPJ ou Contrato ID Não informados", contratos: [] });
        return json(
          res,
          200,
          list.length ? { msg: "", contratos: list.map(contractView) } : { msg: "Nenhum contrato localizado", contratos: [] },
        );
      }
      case path === "titulos": {
        if (prefix === "/ws/ura") return json(res, 404, { detail: "Not found." });
        const c = byContract(b);
        const items = (c?.titulos ?? []).map((t) => ({
          id: t.id,
          clienteNome: c?.razaoSocial,
          clienteCpfcnpj: c?.cpfCnpj,
          clienteContrato: c?.contratoId,
          numeroDocumento: t.id,
          status: t.status,
          valor: t.valor,
          valorCorrigido: t.valor,
          linhaDigitavel: t.linhaDigitavel,
          codigoPix: t.codigoPix,
          link: t.link,
          dataVencimento: t.dataVencimento,
        }));
        return json(res, 200, { titulos: items });
      }
      case path === "fatura2via": {
        const c = byContract(b) ?? contracts.find((x) => digits(x.cpfCnpj) === digits(b.cpfcnpj));
        if (!c) return json(res, 200, { msg: "Nenhum contrato localizado", links: [] });
        const links = c.titulos
          .filter((t) => t.status === "aberto")
          .map((t) => ({
            fatura: t.id,
            valor: t.valor,
            vencimento: t.dataVencimento,
            linhadigitavel: t.linhaDigitavel,
            link: t.link,
            codigopix: t.codigoPix,
          }));
        return json(res, 200, {
          razaoSocial: c.razaoSocial,
          contratoId: c.contratoId,
          link: links[0]?.link,
          links,
          ...(b.nao_gerar_os ? {} : { protocolo: "OS-GERADA" }),
        });
      }
      case path.startsWith("pagamento/pix/"): {
        const id = Number(path.split("/")[2]);
        const c = byContract(b);
        const t = c?.titulos.find((x) => x.id === id);
        if (!t) return json(res, 404, { detail: "Título não encontrado" });
        return json(res, 200, { codigoPix: `PIXSGP-${t.id}-${t.valor.toFixed(2)}` });
      }
      case path === "liberacaopromessa" && opts.oldUnlock:
        return json(res, 404, { detail: "Not found." });
      case path === "liberacaopromessa" || path === "promessapagamento": {
        const c = byContract(b);
        if (!c) return json(res, 200, { status: 0, liberado: false, msg: "Contrato não encontrado" });
        const p = c.promessa;
        return json(res, 200, {
          status: p.liberado ? 1 : 0,
          liberado: p.liberado,
          liberado_dias: p.liberado_dias,
          data_promessa: "2026-11-26",
          protocolo: p.liberado ? `PRT${c.contratoId}` : null,
          msg: p.msg,
        });
      }
      case path === "verificaacesso": {
        const c = byContract(b);
        if (!c) return json(res, 200, { status: 0, msg: "Contrato não encontrado" });
        const msg: Record<number, string> = { 1: "Online", 2: "Offline", 3: "Bloqueado por inadimplência", 8: "Em manutenção" };
        return json(res, 200, { status: c.acesso, msg: msg[c.acesso] ?? "" });
      }
      case path === "chamado":
        if (!req.headers["content-type"]?.includes("json")) return json(res, 400, { detail: "JSON required" });
        return json(res, 200, [{ status: 1, protocolo: `CH${b.contrato}`, contratoId: b.contrato, msg: "Chamado aberto" }]);
      case path === "planoscontas":
        return json(res, 200, { planoscontas: [] });
      default:
        return json(res, 404, { detail: "Not found." });
    }
  });
  return { ...fake, knobs, contracts, prefix };
}
