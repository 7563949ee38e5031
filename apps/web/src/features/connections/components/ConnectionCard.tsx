import type { ConnectionStatus, Whatsapp } from "@balcao/contract";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditOutlinedIcon from "@mui/icons-material/EditOutlined";
import LinkOffIcon from "@mui/icons-material/LinkOff";
import QrCode2Icon from "@mui/icons-material/QrCode2";
import RefreshIcon from "@mui/icons-material/Refresh";
import ScienceOutlinedIcon from "@mui/icons-material/ScienceOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardActions from "@mui/material/CardActions";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import { useConnectionChannel } from "../../cloud";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { formatPhone } from "../../../lib/phone";
import type { SessionAction } from "../api/connections";
import { HealthPanel } from "./HealthPanel";
import { reasonText } from "./reasons";

type ChipColor = "success" | "info" | "warning" | "error" | "default";
export const STATUS_COLOR: Record<ConnectionStatus, ChipColor> = {
  CONNECTED: "success",
  OPENING: "info",
  PAIRING: "info",
  qrcode: "warning",
  DISCONNECTED: "error",
  TIMEOUT: "error",
};

/** Which session actions a status offers (spec 001 §2). */
export function actionsFor(status: ConnectionStatus): Array<SessionAction | "connecting" | "showQr"> {
  switch (status) {
    case "DISCONNECTED":
      return ["start", "newQr"];
    case "OPENING":
      return ["connecting"];
    case "qrcode":
      return ["showQr"];
    default:
      return ["disconnect"];
  }
}

export { reasonText } from "./reasons";

interface ConnectionCardProps {
  connection: Whatsapp;
  busy: boolean;
  onAction: (action: SessionAction) => void;
  onShowQr: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

export function ConnectionCard({ connection: w, busy, onAction, onShowQr, onEdit, onDelete }: ConnectionCardProps) {
  const { t, i18n } = useTranslation();
  const channel = useConnectionChannel(w);
  const color = STATUS_COLOR[w.status];
  const when = new Date(w.updatedAt).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" });
  const reason =
    (w.status === "DISCONNECTED" || w.status === "TIMEOUT") && w.disconnectReason
      ? reasonText(w.disconnectReason, t, (k) => i18n.exists(k))
      : "";

  return (
    <Card data-testid="connection-card" data-status={w.status} sx={{ height: "100%", display: "flex", flexDirection: "column" }}>
      <CardContent sx={{ display: "flex", gap: 1.5, alignItems: "flex-start", pb: 1, minWidth: 0 }}>
        <Avatar
          sx={{
            bgcolor: color === "default" ? "action.selected" : `${color}.main`,
            color: color === "default" ? "text.primary" : `${color}.contrastText`,
          }}
        >
          {w.type === "simulator" ? <ScienceOutlinedIcon /> : <WhatsAppIcon />}
        </Avatar>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Box sx={{ display: "flex", alignItems: "flex-start", gap: 0.5 }}>
            <Typography
              variant="subtitle1"
              fontWeight={600}
              title={w.name}
              component="h2"
              sx={{
                flex: 1,
                minWidth: 0,
                lineHeight: 1.35,
                display: "-webkit-box",
                WebkitLineClamp: 2,
                WebkitBoxOrient: "vertical",
                overflow: "hidden",
                wordBreak: "break-word",
              }}
            >
              {w.name}
            </Typography>
            <Box sx={{ display: "flex", flexShrink: 0, mt: -0.5, mr: -1 }}>
              <Tooltip title={t("common.edit")}>
                <IconButton size="small" aria-label={`${t("common.edit")} ${w.name}`} onClick={onEdit}>
                  <EditOutlinedIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t("common.delete")}>
                <IconButton size="small" color="error" aria-label={`${t("common.delete")} ${w.name}`} onClick={onDelete}>
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </Box>
          </Box>
          <Typography variant="body2" color="text.secondary" noWrap data-testid="connection-number">
            {w.number ? formatPhone(w.number) : t("connections.noNumber")}
          </Typography>
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, mt: 1 }}>
            <Chip size="small" color={color} label={t(`connections.status.${w.status}`)} data-testid="connection-status" />
            {w.isDefault && <Chip size="small" variant="outlined" color="primary" label={t("connections.default")} />}
            {w.type === "simulator" && <Chip size="small" variant="outlined" label={t("connections.simulator")} />}
            {channel.label && (
              <Chip
                size="small"
                variant="outlined"
                color={w.type === "cloud" ? "secondary" : "default"}
                label={channel.label}
                data-testid="connection-channel"
              />
            )}
          </Box>
          {channel.limits && (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }} data-testid="connection-limits">
              {channel.limits}
            </Typography>
          )}
          {reason && (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }} noWrap title={reason}>
              {reason}
            </Typography>
          )}
          <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 0.75, mt: 1 }}>
            {w.queues.length === 0 ? (
              <Typography variant="caption" color="text.secondary">
                {t("connections.queuesNone")}
              </Typography>
            ) : (
              w.queues.map((q) => (
                <Box key={q.id} sx={{ display: "inline-flex", alignItems: "center", gap: 0.5, minWidth: 0, maxWidth: "100%" }}>
                  <Box component="span" sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: q.color, flexShrink: 0 }} />
                  <Typography variant="caption" noWrap>
                    {q.name}
                  </Typography>
                </Box>
              ))
            )}
          </Box>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
            {t("connections.updatedAt", { when })}
            {w.retries > 0 && w.status !== "CONNECTED" ? ` · ${t("connections.retries", { count: w.retries })}` : ""}
          </Typography>
        </Box>
      </CardContent>
      <Box sx={{ px: 2, pb: 1.5, flex: 1 }}>
        <HealthPanel whatsappId={w.id} />
      </Box>
      <CardActions sx={{ pt: 0, px: 2, pb: 2 }}>
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, flex: 1, minWidth: 0, pl: 6.5 }}>
          {actionsFor(w.status).map((a) => {
            switch (a) {
              case "start":
                return (
                  <Button
                    key={a}
                    size="small"
                    variant="contained"
                    startIcon={<RefreshIcon />}
                    disabled={busy}
                    onClick={() => onAction("start")}
                  >
                    {t("connections.actions.retry")}
                  </Button>
                );
              case "newQr":
                return (
                  <Button
                    key={a}
                    size="small"
                    variant="outlined"
                    startIcon={<QrCode2Icon />}
                    disabled={busy}
                    onClick={() => onAction("newQr")}
                  >
                    {t("connections.actions.newQr")}
                  </Button>
                );
              case "connecting":
                return (
                  <Button key={a} size="small" variant="outlined" disabled startIcon={<CircularProgress size={14} color="inherit" />}>
                    {t("connections.actions.connecting")}
                  </Button>
                );
              case "showQr":
                return (
                  <Button key={a} size="small" variant="contained" startIcon={<QrCode2Icon />} onClick={onShowQr}>
                    {t("connections.actions.showQr")}
                  </Button>
                );
              default:
                return (
                  <Button
                    key={a}
                    size="small"
                    variant="outlined"
                    color="error"
                    startIcon={<LinkOffIcon />}
                    disabled={busy}
                    onClick={() => onAction("disconnect")}
                  >
                    {t("connections.actions.disconnect")}
                  </Button>
                );
            }
          })}
        </Box>
      </CardActions>
    </Card>
  );
}
