import Badge from "@mui/material/Badge";
import type { ReactNode } from "react";
import { useConnectionsAlert } from "../api/connections-alert";

/** The drawer entry's red dot while a connection needs attention (admins only: the entry is in their section). */
export function ConnectionsAlert({ children }: { children: ReactNode }) {
  const alert = useConnectionsAlert(true);
  if (!alert) return children;
  return (
    <Badge color="error" variant="dot" overlap="circular" data-testid="connections-alert">
      {children}
    </Badge>
  );
}
