import type { AuditAnswer } from "@balcao/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { downloadWithSession } from "../../../lib/download";

/** The screen's filters as typed (days as YYYY-MM-DD; empty = any). */
export interface AuditFilters {
  status: string;
  userId: string;
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { status: "", userId: "", from: "", to: "" };

function queryOf(f: AuditFilters) {
  return {
    action: f.status || undefined,
    userId: f.userId || undefined,
    from: f.from || undefined,
    to: f.to || undefined,
  };
}

export function useAudit(f: AuditFilters, pageNumber: number) {
  return useQuery({
    queryKey: ["audit", f, pageNumber],
    queryFn: ({ signal }) => http.get<AuditAnswer>("/audit", { ...queryOf(f), pageNumber }, signal),
    placeholderData: keepPreviousData,
  });
}

/** 'Exportar CSV': the filtered entries, as the server writes them. */
export function exportAuditCsv(f: AuditFilters) {
  const q = new URLSearchParams(Object.entries(queryOf(f)).filter((e): e is [string, string] => !!e[1]));
  return downloadWithSession(`/audit/export${q.size ? `?${q}` : ""}`, `auditoria-${new Date().toISOString().slice(0, 10)}.csv`);
}
