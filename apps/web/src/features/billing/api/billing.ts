import type { BillingCustomerAnswer, UnlockResult } from "@balcao/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, http } from "../../../api/http";
import { randomKey } from "../../../lib/random-key";

/**
 * The ticket's customer in the billing system (SGP / MK-AUTH), and the panel's actions. Once the
 * server said no billing system is configured (ERR_BILLING_NOT_CONFIGURED), no ticket asks again
 * for a while: opening 'Dados do contato' then makes no request at all.
 */
let unconfiguredUntil = 0;
/** How long "no billing system" is believed before a panel asks again (an admin may have just configured one). */
export const BILLING_UNCONFIGURED_MEMORY_MS = 60_000;

/** Whether the server said, a moment ago, that no billing system is configured. */
export function billingKnownUnconfigured(now = Date.now()): boolean {
  return now < unconfiguredUntil;
}

/** Forgets it (tests; a settings change). */
export function forgetBillingUnconfigured() {
  unconfiguredUntil = 0;
}

export function useBillingCustomer(ticketId: number, opts: { document?: string; contractId?: string; enabled: boolean }) {
  return useQuery({
    queryKey: ["billing", "customer", ticketId, opts.document ?? "", opts.contractId ?? ""],
    queryFn: async ({ signal }) => {
      try {
        return await http.get<BillingCustomerAnswer>(
          `/billing/${ticketId}/customer`,
          { ...(opts.document && { document: opts.document }), ...(opts.contractId && { contractId: opts.contractId }) },
          signal,
        );
      } catch (err) {
        if (err instanceof ApiError && err.code === "ERR_BILLING_NOT_CONFIGURED")
          unconfiguredUntil = Date.now() + BILLING_UNCONFIGURED_MEMORY_MS;
        throw err;
      }
    },
    enabled: opts.enabled && !billingKnownUnconfigured(),
    retry: false,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    // the panel says what went wrong itself; without a billing system it shows nothing (no red toast on each open)
    meta: { silent: true },
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
