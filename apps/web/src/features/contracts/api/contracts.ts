import type { ContractCreateBody, ContractItem, ContractsAnswer, ContractTemplate, ContractTemplateBody } from "@balcao/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";

/** The filters of the screen and the dialog (plain dates, the product's time zone). */
export interface ContractFilters {
  status: "" | "Nao assinado" | "Assinado";
  from: string;
  to: string;
}
export const NO_FILTERS: ContractFilters = { status: "", from: "", to: "" };

const keys = {
  all: ["contracts"] as const,
  list: (ticket: number | undefined, page: number, limit: number, f: ContractFilters) =>
    ["contracts", "list", ticket ?? 0, page, limit, f] as const,
  templates: ["contracts", "templates"] as const,
};

const params = (ticket: number | undefined, page: number, limit: number, f: ContractFilters) => ({
  ticket,
  page,
  limit,
  status: f.status || undefined,
  from: f.from || undefined,
  to: f.to || undefined,
});

export function useContracts(ticket: number | undefined, page: number, limit: number, f: ContractFilters, enabled = true) {
  return useQuery({
    queryKey: keys.list(ticket, page, limit, f),
    queryFn: ({ signal }) => http.get<ContractsAnswer>("/api/contratos", params(ticket, page, limit, f), signal),
    placeholderData: keepPreviousData,
    enabled,
    meta: { silent: true },
  });
}

/** Every contract the filters match (up to 1000), for 'Excluir todos (filtrados)'. */
export function fetchAllFiltered(ticket: number | undefined, f: ContractFilters) {
  return http.get<ContractsAnswer>("/api/contratos", params(ticket, 1, 1000, f));
}

/**
 * 'Excluir todos (filtrados)' (§7): the filtered contracts (up to 1000) fetched, then each deleted in
 * parallel; answers how many were found, deleted and failed. A failed list request throws.
 */
export async function deleteAllFiltered(ticket: number | undefined, f: ContractFilters) {
  const all = await fetchAllFiltered(ticket, f);
  const results = await Promise.allSettled(all.items.map((i) => http.delete(`/api/contratos/${i.id}`)));
  const failed = results.filter((r) => r.status === "rejected").length;
  return { found: all.items.length, deleted: results.length - failed, failed };
}

/** A live list: created, generated, signed ('Assinado') or deleted contracts refresh it. */
export function useContractsLive() {
  const qc = useQueryClient();
  useSocketEvent("contract", () => void qc.invalidateQueries({ queryKey: keys.all }));
}

export function useCreateContract() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ContractCreateBody) => http.post<ContractItem>("/api/contratos", body),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useDeleteContract() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<unknown>(`/api/contratos/${id}`),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.all }),
    meta: { silent: true },
  });
}

export function useTemplates(enabled = true) {
  return useQuery({
    queryKey: keys.templates,
    queryFn: ({ signal }) => http.get<ContractTemplate[]>("/api/contratos/modelos", undefined, signal),
    enabled,
  });
}

export function useSaveTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: ContractTemplateBody }) =>
      id ? http.put<ContractTemplate>(`/api/contratos/modelos/${id}`, body) : http.post<ContractTemplate>("/api/contratos/modelos", body),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.templates }),
  });
}

export function useDeleteTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<unknown>(`/api/contratos/modelos/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.templates }),
  });
}

/**
 * A contract's PDF as a blob: URL (the file route wants the session's bearer token, which a frame
 * or a new tab cannot send). The caller revokes it.
 */
export async function fetchContractFile(caminho: string): Promise<string> {
  const get = () => fetch(caminho, { headers: { authorization: `Bearer ${http.getToken() ?? ""}` } });
  let res = await get();
  if (res.status === 403 || res.status === 401) {
    await http.refresh();
    res = await get();
  }
  if (!res.ok) throw new ApiError(res.status, "ERR_NOT_FOUND");
  return URL.createObjectURL(await res.blob());
}

/** What the contracts' previews fill from the settings: the witnesses, the provider's identity and the time zone (any signed-in user reads them). */
export function useContractSettings(enabled = true) {
  return useQuery({
    queryKey: ["contracts", "settings"],
    queryFn: async ({ signal }) => {
      const rows = await http.get<{ key: string; value: string }[]>("/settings", undefined, signal);
      return Object.fromEntries(rows.map((r) => [r.key, r.value])) as Record<string, string>;
    },
    enabled,
    staleTime: 60_000,
    meta: { silent: true },
  });
}
