// "Meu perfil": the theme rule, what the form sends, and the screen rendered for real (React, MUI,
// the form) over a query cache holding the profile as the server answered it.
import type { MyProfile, User } from "@balcao/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError, http } from "../../api/http";
import i18n, { setLanguage } from "../../locales";
import { profileKey, resolveDark } from "./api/profile";
import ProfilePage, { profileForm, toBody } from "./components/ProfilePage";

const me: User = { id: 7, name: "Ana Agente", email: "ana@example.com", profile: "user", queues: [], createdAt: "", updatedAt: "" };
const setUser = vi.fn();
vi.mock("../auth", () => ({ useAuth: () => ({ user: me, setUser, signIns: 0 }) }));
const toasts = vi.hoisted(() => ({ success: [] as string[], error: [] as unknown[] }));
vi.mock("../../lib/toast", () => ({
  toastSuccess: (m: string) => toasts.success.push(m),
  toastError: (e: unknown) => toasts.error.push(e),
  toastInfo: () => {},
}));

const saved: MyProfile = {
  id: 7,
  name: "Ana Agente",
  email: "ana@example.com",
  profile: "user",
  language: null,
  theme: "default",
  notificationSound: true,
};

function renderPage(profile: MyProfile = saved) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } } });
  client.setQueryData(profileKey(7), profile);
  client.setQueryData(["settings"], { darkMode: "enabled" });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ProfilePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

beforeAll(() => setLanguage("pt-BR"));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("the theme", () => {
  it("the user's light or dark wins over the installation's; 'padrão da instalação' follows it", () => {
    expect(resolveDark("dark", false)).toBe(true);
    expect(resolveDark("light", true)).toBe(false);
    expect(resolveDark("default", true)).toBe(true);
    expect(resolveDark("default", false)).toBe(false);
    expect(resolveDark(undefined, true)).toBe(true);
  });
});

describe("the form", () => {
  const values = {
    name: "Ana",
    currentPassword: "",
    password: "",
    confirmPassword: "",
    language: "pt-BR" as const,
    theme: "dark" as const,
    notificationSound: false,
  };

  it("sends the password pair only when a new password was typed", () => {
    expect(toBody(values)).toEqual({ name: "Ana", language: "pt-BR", theme: "dark", notificationSound: false });
    expect(toBody({ ...values, currentPassword: "old-pass", password: "new-pass", confirmPassword: "new-pass" })).toMatchObject({
      password: "new-pass",
      currentPassword: "old-pass",
    });
  });

  it("a new password follows the users' rules, needs the current one and the same text twice", () => {
    const fields = (v: object) => {
      const r = profileForm.safeParse({ ...values, ...v });
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
    };
    expect(fields({})).toEqual({});
    expect(fields({ password: "1234", confirmPassword: "1234", currentPassword: "x" })).toEqual({ password: "Too Short!" });
    expect(fields({ password: "new-pass", confirmPassword: "new-pass" })).toEqual({ currentPassword: "Required" });
    expect(fields({ password: "new-pass", confirmPassword: "other", currentPassword: "x" })).toEqual({
      confirmPassword: "validation.passwordsDiffer",
    });
    expect(fields({ name: "A" })).toEqual({ name: "Too Short!" });
  });
});

describe("the screen", () => {
  it("shows the account, in Portuguese, with the installation's theme named", async () => {
    renderPage();
    expect(await screen.findByRole("heading", { name: "Meu perfil" })).toBeTruthy();
    expect((screen.getByLabelText("Nome") as HTMLInputElement).value).toBe("Ana Agente");
    expect(screen.getByTestId("profile-role").textContent).toBe("Atendente");
    expect((screen.getByLabelText("E-mail") as HTMLInputElement).value).toBe("ana@example.com");
    for (const label of ["Senha atual", "Nova senha", "Idioma", "Tema", "Som de notificação"])
      expect(screen.getByLabelText(label)).toBeTruthy();
    expect(screen.getByText("Padrão da instalação (escuro)")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Salvar" })).toBeTruthy();
  });

  it("a new password without the current one, or typed differently twice, is not sent", async () => {
    const put = vi.spyOn(http, "put");
    renderPage();
    await screen.findByRole("heading", { name: "Meu perfil" });
    fireEvent.change(screen.getByLabelText("Nova senha"), { target: { value: "new-pass" } });
    fireEvent.change(screen.getByLabelText("Confirmar nova senha"), { target: { value: "nova-pass" } });
    fireEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("Obrigatório")).toBeTruthy();
    expect(screen.getByText("As senhas não conferem")).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
  });

  it("saves the name and preferences; the cached profile and the top bar's name take the answer", async () => {
    const put = vi.spyOn(http, "put").mockImplementation(async (_path, body) => ({ ...saved, ...(body as object) }) as never);
    const client = renderPage();
    await screen.findByRole("heading", { name: "Meu perfil" });
    fireEvent.change(screen.getByLabelText("Nome"), { target: { value: "Ana Maria" } });
    fireEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put).toHaveBeenCalledWith("/profile", { name: "Ana Maria", language: "pt-BR", theme: "default", notificationSound: true });
    await waitFor(() => expect(setUser).toHaveBeenCalledWith({ ...me, name: "Ana Maria" }));
    expect(client.getQueryData<MyProfile>(profileKey(7))?.name).toBe("Ana Maria");
    expect(i18n.language).toBe("pt-BR");
    await waitFor(() => expect(toasts.success).toContain("Perfil salvo."));
    expect(toasts.error).toEqual([]);
  });

  it("a wrong current password is said under its field, and the passwords stay typed", async () => {
    vi.spyOn(http, "put").mockRejectedValue(new ApiError(400, "ERR_WRONG_PASSWORD"));
    toasts.error.length = 0;
    renderPage();
    await screen.findByRole("heading", { name: "Meu perfil" });
    fireEvent.change(screen.getByLabelText("Senha atual"), { target: { value: "guess" } });
    fireEvent.change(screen.getByLabelText("Nova senha"), { target: { value: "new-pass" } });
    fireEvent.change(screen.getByLabelText("Confirmar nova senha"), { target: { value: "new-pass" } });
    fireEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("A senha atual não confere.")).toBeTruthy();
    expect(toasts.error).toHaveLength(1);
    expect((screen.getByLabelText("Nova senha") as HTMLInputElement).value).toBe("new-pass");
  });
});
