// The message input rendered for real (React, MUI): an internal note turns note mode off once sent;
// a narrow composer puts its actions, Assinar among them, in one menu and keeps its placeholder short.
import type { Ticket } from "@balcao/contract";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../locales";
import { COMPOSER_COMPACT_BELOW, composerCompact, MessageInput } from "./components/MessageInput";

const sent = vi.hoisted(() => [] as unknown[]);
vi.mock("../auth", () => ({ useAuth: () => ({ user: { id: 7, name: "Ana" } }) }));
vi.mock("./api/messages", () => ({
  useSendMessage: () => ({
    isPending: false,
    mutateAsync: async (body: unknown) => {
      sent.push(body);
      return {};
    },
  }),
  sendTyping: () => {},
  useAudioEntriesList: () => ({ isPending: false, data: [] }),
  useQuickAnswerLookup: () => ({ data: undefined }),
  audioEntryFile: async () => new File([], "a.mp3"),
}));

const ticket = { id: 42, status: "open", contact: { name: "Maria" } } as unknown as Ticket;

function renderInput() {
  return render(<MessageInput ticket={ticket} replyTo={null} onCancelReply={() => {}} />);
}

beforeAll(() => setLanguage("pt-BR"));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sent.length = 0;
  localStorage.clear();
});

describe("the message input", () => {
  it("a note sent with the toggle on turns note mode off: the next message goes to the customer", async () => {
    renderInput();
    const toggle = screen.getByTestId("note-toggle");
    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    const input = screen.getByTestId("message-input");
    fireEvent.change(input, { target: { value: "verificar a ONU" } });
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(toggle.getAttribute("aria-pressed")).toBe("false"));
    expect(sent).toEqual([{ body: "verificar a ONU", internal: true }]);
    expect((input as HTMLTextAreaElement).value).toBe("");
  });

  it("narrow: one menu button holds the actions, Assinar too; the placeholder is short", async () => {
    // a phone's composer: what the layout would measure
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockReturnValue({ width: 375 } as DOMRect);
    renderInput();
    const input = screen.getByTestId("message-input");
    expect(input.getAttribute("placeholder")).toBe("Digite uma mensagem");
    expect(screen.queryByLabelText("Assinar")).toBeNull();
    fireEvent.click(screen.getByTestId("composer-more"));
    const menu = await screen.findByTestId("composer-menu");
    for (const name of ["Emoji", "Áudios prontos", "Anexar arquivo", "Respostas rápidas"]) within(menu).getByRole("menuitem", { name });
    const sign = within(menu).getByTestId("composer-sign");
    expect(sign.textContent).toContain("Assinar");
    expect(sign.getAttribute("aria-checked")).toBe("true");
    fireEvent.click(sign);
    expect(sign.getAttribute("aria-checked")).toBe("false");
    expect(localStorage.getItem("signOption")).toBe("false");
    // note mode from the menu: the short placeholder
    fireEvent.click(within(menu).getByTestId("note-toggle"));
    await waitFor(() => expect(input.getAttribute("placeholder")).toBe("Nota interna (só a equipe vê)"));
  });

  it("wide: the actions and Assinar beside the text box", () => {
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockReturnValue({ width: 700 } as DOMRect);
    renderInput();
    expect(screen.queryByTestId("composer-more")).toBeNull();
    expect(screen.getByLabelText("Assinar")).toBeTruthy();
    expect(screen.getByTestId("message-input").getAttribute("placeholder")).toBe("Digite / para respostas rápidas");
  });

  it("the menu below COMPOSER_COMPACT_BELOW px; not before the composer is laid out", () => {
    expect(composerCompact(375)).toBe(true);
    expect(composerCompact(COMPOSER_COMPACT_BELOW)).toBe(false);
    expect(composerCompact(0)).toBe(false);
  });
});
