import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { Trans, useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { isAdmin, useAuth } from "../../auth";
import { connectionsQuery } from "../../connections";
import { useQueues } from "../../queues";

/**
 * Under an empty inbox, what a new team still has to do: an admin is pointed to Conexões and
 * Setores (only the ones still missing; `<page>` marks the link: `<link>` would be an empty HTML element); anyone else is told to wait for customers, or to ask an
 * admin for a queue when they are in none. Nothing when the admin's setup is complete.
 */
export function FirstDayHint({ inboxEmpty }: { inboxEmpty: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const connections = useQuery({ ...connectionsQuery, enabled: admin });
  const queues = useQueues();
  if (admin) {
    const noConnection = connections.data?.length === 0;
    const noQueue = queues.data?.length === 0;
    if (!noConnection && !noQueue) return null;
    return (
      <Box sx={{ px: 3, pb: 3, textAlign: "left", maxWidth: 380, mx: "auto" }} data-testid="first-day-hint">
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          {t("tickets.firstDay.title")}
        </Typography>
        <Box component="ol" sx={{ m: 0, pl: 2.5, display: "grid", gap: 1, typography: "body2", color: "text.secondary" }}>
          {noConnection && (
            <li data-testid="first-day-connections">
              <Trans
                i18nKey="tickets.firstDay.connection"
                components={{ page: <Link component={RouterLink} to="/connections" fontWeight={600} /> }}
              />
            </li>
          )}
          {noQueue && (
            <li data-testid="first-day-queues">
              <Trans
                i18nKey="tickets.firstDay.queue"
                components={{ page: <Link component={RouterLink} to="/queues" fontWeight={600} /> }}
              />
            </li>
          )}
        </Box>
      </Box>
    );
  }
  if (!inboxEmpty) return null;
  const inNoQueue = (user?.queues?.length ?? 0) === 0;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ px: 3, pb: 3, textAlign: "center" }} data-testid="first-day-hint">
      {t(inNoQueue ? "tickets.firstDay.agentNoQueue" : "tickets.firstDay.agentWait")}
    </Typography>
  );
}
