import type { AuthAnswer, LoginBody, SignupBody, User } from "@balcao/contract";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { http } from "../../api/http";

interface AuthState {
  user: User | null;
  /** True until the stored token has been checked on load. */
  loading: boolean;
  login(body: LoginBody): Promise<User>;
  signup(body: SignupBody): Promise<User>;
  logout(): Promise<void>;
  setUser(user: User): void;
  /** True right after a sign-in: the public pages then send the user to /tickets instead of /. */
  justSignedIn: boolean;
  clearJustSignedIn(): void;
  /** How many sign-ins (login, signup) this page has seen: 0 after a reload, where the session was resumed, not signed into. */
  signIns: number;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(() => Boolean(http.getToken()));
  const [justSignedIn, setJustSignedIn] = useState(false);
  const [signIns, setSignIns] = useState(0);

  useEffect(() => {
    const offLogout = http.onLogout(() => {
      setUser(null);
      queryClient.clear();
    });
    const offRefresh = http.onRefresh((a) => setUser(a.user));
    // A stored token: the refresh cookie tells who is signed in.
    if (http.getToken()) {
      http
        .refresh()
        .catch(() => http.setToken(null))
        .finally(() => setLoading(false));
    }
    return () => {
      offLogout();
      offRefresh();
    };
  }, [queryClient]);

  const accept = useCallback((a: AuthAnswer) => {
    http.setToken(a.token);
    setUser(a.user);
    setJustSignedIn(true);
    setSignIns((n) => n + 1);
    return a.user;
  }, []);

  const value = useMemo<AuthState>(
    () => ({
      user,
      loading,
      login: async (body) => accept(await http.post<AuthAnswer>("/auth/login", body)),
      signup: async (body) => accept(await http.post<AuthAnswer>("/auth/signup", body)),
      logout: async () => {
        await http.delete("/auth/logout").catch(() => undefined);
        http.setToken(null);
        setUser(null);
        queryClient.clear();
      },
      setUser,
      justSignedIn,
      clearJustSignedIn: () => setJustSignedIn(false),
      signIns,
    }),
    [user, loading, accept, queryClient, justSignedIn, signIns],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error("useAuth outside AuthProvider");
  return ctx;
}

export const isAdmin = (user: User | null) => user?.profile === "admin";
/** Admins and supervisors (the dashboard). */
export const isSupervisor = (user: User | null) => user?.profile === "admin" || user?.profile === "superv";
