// The connection dialog on a first day: no queues yet, and a new connection without an API token.
// Rendered for real (React, MUI, the form) over a query cache that holds the queues list as the server answered it.
import type { Queue } from "@balcao/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setLanguage } from "../../locales";
import { ConnectionDialog } from "./components/ConnectionDialog";
import "./i18n";

function renderDialog(queues: Queue[]) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } } });
  client.setQueryData(["queues"], queues);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ConnectionDialog open connection={null} simulatorAvailable={false} onClose={() => {}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const suporte: Queue = { id: 1, name: "Suporte", color: "#1565c0", greetingMessage: "" } as Queue;

beforeAll(() => setLanguage("pt-BR"));
afterEach(cleanup);

describe("connection dialog, first day", () => {
  it("with no queues yet, Setores says so and links to the Setores screen", async () => {
    renderDialog([]);
    const hint = await screen.findByText(/Nenhum setor criado ainda/);
    const link = within(hint.closest("p") ?? hint).getByRole("link", { name: "Setores" });
    expect(link.getAttribute("href")).toBe("/queues");
  });

  it("with queues, no such hint", async () => {
    renderDialog([suporte]);
    await screen.findByTestId("token-state");
    expect(screen.queryByText(/Nenhum setor criado ainda/)).toBeNull();
  });

  it("a new connection's API token: the text says what to do after saving (saving makes none)", async () => {
    renderDialog([suporte]);
    const state = (await screen.findByTestId("token-state")).textContent ?? "";
    expect(state).not.toMatch(/Salve a conexão para gerar/);
    expect(state).toContain("Editar");
    expect(state).toContain("Gerar novo token");
  });
});
