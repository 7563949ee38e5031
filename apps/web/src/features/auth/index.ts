/** Who is signed in: the session, the sign-in and sign-up screens. */
export { AuthProvider, isAdmin, isSupervisor, useAuth } from "./auth-context";
export { LoginPage } from "./LoginPage";
export { authRoutes } from "./routes";
export { useLiveSession } from "./use-live-session";
