// Issue 53 (b): without a billing system, 'Dados do contato' shows nothing: no red toast, and no
// second request while that is known.
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../app/query-client";
import { setLanguage } from "../../locales";
import { forgetBillingUnconfigured } from "./api/billing";
import { BillingPanel } from "./components/BillingPanel";

const toasts = vi.hoisted(() => [] as unknown[]);
vi.mock("../../lib/toast", () => ({
  toastError: (e: unknown) => toasts.push(e),
  toastSuccess: () => {},
  toastInfo: () => {},
}));

beforeAll(() => setLanguage("pt-BR"));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  forgetBillingUnconfigured();
  toasts.length = 0;
});

describe("the billing panel", () => {
  it("without a billing system: nothing shown, no error toast, and the next ticket does not ask again", async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        calls.push(String(url));
        return new Response(JSON.stringify({ error: "ERR_BILLING_NOT_CONFIGURED" }), {
          status: 404,
          headers: { "content-type": "application/json" },
        });
      }),
    );
    const client = createQueryClient();
    const view = render(
      <QueryClientProvider client={client}>
        <BillingPanel ticketId={1} canAct open />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(calls.filter((c) => c.includes("/billing/1/customer"))).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId("billing-panel")).toBeNull());
    view.rerender(
      <QueryClientProvider client={client}>
        <BillingPanel ticketId={2} canAct open />
      </QueryClientProvider>,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId("billing-panel")).toBeNull();
    expect(calls.filter((c) => c.includes("/billing/2/customer"))).toHaveLength(0);
    expect(toasts).toEqual([]);
  });
});
