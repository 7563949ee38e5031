import { type ContractValues, companyFromSettings, contractDate, witnessesFromSettings } from "@balcao/contract";

/**
 * The values the 'Novo Contrato' preview fills a template with: the form, the ticket's number, and
 * the witnesses, the provider's identity and the time zone of the settings — what the server fills
 * the PDF with (fillContract).
 */
export function previewValues(p: {
  nome: string;
  cpf: string;
  email: string;
  telefone: string;
  campos: Record<string, string>;
  settings: Record<string, string> | undefined;
  now: Date;
}): ContractValues {
  const s = p.settings ?? {};
  return {
    nome: p.nome,
    cpf: p.cpf,
    email: p.email,
    telefone: p.telefone,
    campos: p.campos,
    witnesses: witnessesFromSettings(s),
    empresa: companyFromSettings(s),
    data: contractDate(p.now, s.timezone || "America/Sao_Paulo"),
  };
}
