import type { BillingCustomerAnswer, UnlockResult } from "@balcao/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { randomKey } from "../../../lib/random-key";

/** The ticket's customer in the billing system (SGP / MK-AUTH), and the panel's actions. */
export function useBillingCustomer(ticketId: number, opts: { document?: string; contractId?: string; enabled: boolean }) {
  return useQuery({
    queryKey: ["billing", "customer", ticketId, opts.document ?? "", opts.contractId ?? ""],
    queryFn: ({ signal }) =>
      http.get<BillingCustomerAnswer>(
        `/billing/${ticketId}/customer`,
        { ...(opts.document && { document: opts.document }), ...(opts.contractId && { contractId: opts.contractId }) },
        signal,
      ),
    enabled: opts.enabled,
    retry: false,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function useSendInvoice(ticketId: number) {
  return useMutation({
    // one key per click, kept across the retries of a lost answer: the customer gets the 2ª via once
    mutationFn: (v: { contractId: string; invoiceId: string; mode: "invoice" | "pix" }) =>
      http.idempotent<{ messageIds: number[] }>(
        `/billing/${ticketId}/${v.mode === "pix" ? "send-pix" : "send-invoice"}`,
        { body: { contractId: v.contractId, invoiceId: v.invoiceId } },
        randomKey(),
      ),
  });
}

export function useUnlock(ticketId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (contractId: string) =>
      http.post<UnlockResult & { messageIds: number[] }>(`/billing/${ticketId}/unlock`, { contractId, confirm: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["billing", "customer", ticketId] }),
  });
}
