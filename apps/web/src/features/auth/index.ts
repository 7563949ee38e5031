/** Who is signed in: the session, the sign-in and sign-up screens. */
export { AuthProvider, isAdmin, useAuth } from "./auth-context";
export { LoginPage } from "./LoginPage";
export { authRoutes } from "./routes";
export { useLiveSession } from "./use-live-session";
