import type { MyProfile, MyProfileAnswer, MyProfileBody, UserTheme } from "@balcao/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { http } from "../../../api/http";
import { type Language, LANGUAGES, setLanguage } from "../../../locales";
import { useSocket } from "../../../lib/socket";
import { useAuth } from "../../auth";

/** The signed-in user's own account ("Meu perfil"), per user. */
export const profileKey = (userId: number | undefined) => ["profile", userId] as const;

/** The last theme choice of this device's user, kept so a reload paints it at once (before GET /profile answers). */
export const THEME_KEY = "themePreference";

function readStoredTheme(userId: number | undefined, storage: Pick<Storage, "getItem"> = localStorage): UserTheme | undefined {
  try {
    const stored = JSON.parse(storage.getItem(THEME_KEY) ?? "null") as { userId?: unknown; theme?: unknown } | null;
    const theme = stored?.theme;
    return stored?.userId === userId && (theme === "light" || theme === "dark" || theme === "default") ? theme : undefined;
  } catch {
    return undefined;
  }
}

function storeTheme(userId: number, theme: UserTheme) {
  try {
    localStorage.setItem(THEME_KEY, JSON.stringify({ userId, theme }));
  } catch {
    /* storage unavailable: the theme comes with the profile */
  }
}

/** Dark or not: the user's own choice wins over the installation's default (the darkMode setting). */
export function resolveDark(preference: UserTheme | undefined, installationDark: boolean): boolean {
  if (preference === "dark") return true;
  if (preference === "light") return false;
  return installationDark;
}

export function useMyProfile() {
  const { user } = useAuth();
  return useQuery({
    queryKey: profileKey(user?.id),
    queryFn: () => http.get<MyProfile>("/profile"),
    enabled: Boolean(user),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The signed-in user's theme choice (their last known one until the profile is read); none when signed out. */
export function useThemePreference(): UserTheme | undefined {
  const { user } = useAuth();
  const { data } = useMyProfile();
  useEffect(() => {
    if (data) storeTheme(data.id, data.theme);
  }, [data]);
  if (!user) return undefined;
  return data?.theme ?? readStoredTheme(user.id);
}

/** Whether new messages and mentions chime for the signed-in user (on until the profile says otherwise). */
export function useNotificationSound(): boolean {
  return useMyProfile().data?.notificationSound ?? true;
}

const isLanguage = (v: string): v is Language => LANGUAGES.some((l) => l.code === v);

/**
 * At each sign-in (not at a reload, where the device's choice stays), the language kept on the
 * account becomes the interface's. Mounted once, by the shell.
 */
let appliedSignIn = 0;
export function useLanguageAtSignIn() {
  const { signIns } = useAuth();
  const { data } = useMyProfile();
  useEffect(() => {
    if (!data || signIns === 0 || appliedSignIn === signIns) return;
    appliedSignIn = signIns;
    if (data.language && isLanguage(data.language)) void setLanguage(data.language);
  }, [data, signIns]);
}

/** Saves of the profile go one after the other, in the order made (a later choice is never overwritten by an earlier answer). */
const SAVES = { id: "profile" };
const putProfile = (body: MyProfileBody) => http.put<MyProfileAnswer>("/profile", body);

/**
 * Saves the caller's own changes: the cached profile takes the answer (the theme follows at once),
 * the top bar the name, the interface the language; after a new password this page carries on with
 * the session the server opened for it (every other session of the user ended).
 */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  const { user, setUser } = useAuth();
  const socket = useSocket();
  return useMutation({
    scope: SAVES,
    // the screen puts the server's messages under the fields and toasts them itself
    meta: { silent: true },
    mutationFn: putProfile,
    onSuccess: async ({ token, ...saved }) => {
      if (token) {
        http.setToken(token);
        // the server closed this page's socket with the others: it connects again with the new token
        if (socket && !socket.connected && !socket.active) socket.connect();
      }
      queryClient.setQueryData(profileKey(saved.id), saved);
      if (user && user.id === saved.id && user.name !== saved.name) setUser({ ...user, name: saved.name });
      if (saved.language && isLanguage(saved.language)) await setLanguage(saved.language);
    },
  });
}

/** The top bar's language choice (already applied), kept on the account too: the next sign-in, anywhere, has it. */
export function useKeepLanguage() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const keep = useMutation({
    scope: SAVES,
    mutationFn: putProfile,
    onSuccess: ({ token: _none, ...saved }) => queryClient.setQueryData(profileKey(saved.id), saved),
  });
  return (language: Language) => {
    if (user) keep.mutate({ language });
  };
}
