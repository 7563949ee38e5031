import { useSocketEvent } from "../../lib/socket";
import { useAuth } from "./auth-context";

/** Changes to the signed-in user (profile, queues, name) reach the shell at once. */
export function useLiveSession() {
  const { user, setUser } = useAuth();
  useSocketEvent("user", (p) => {
    if (p.action !== "delete" && user && p.user.id === user.id) setUser(p.user);
  });
}
