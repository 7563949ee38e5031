import "../i18n";
import Button from "@mui/material/Button";
import { closeSnackbar, enqueueSnackbar, type SnackbarKey } from "notistack";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router-dom";
import { useSocketEvent } from "../../../lib/socket";
import { pauseReasonText } from "./HealthPanel";

/**
 * A ban signal paused a number's automatic sends: the admin hears it on whatever screen they are,
 * not only on Conexões. The toast stays until it is closed, followed ('Ver conexões') or the number
 * is resumed; on the connections screen itself the card shows the pause, so the toast has only
 * its close button. One toast per number: a new pause replaces its earlier one.
 * `whatsappHealth` reaches admins only (the server's admins room); `enabled` keeps others quiet.
 */
export function useConnectionHealthAlerts(enabled: boolean) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  /** the alert on screen for each number */
  const open = useRef(new Map<number, SnackbarKey>());
  useSocketEvent("whatsappHealth", (p) => {
    if (!enabled) return;
    const shown = open.current.get(p.whatsappId);
    // resumed ('Retomar envios', on any screen or by another admin), or paused anew: its alert is over
    if (shown !== undefined && (!p.health.paused || p.alert)) {
      closeSnackbar(shown);
      open.current.delete(p.whatsappId);
    }
    if (!p.alert) return;
    const reason = pauseReasonText(p.alert.reason, t, (k) => i18n.exists(k));
    const onConnections = pathname.startsWith("/connections");
    const key = enqueueSnackbar(t("connections.health.alert", { name: p.alert.name, reason }), {
      variant: "error",
      persist: true,
      action: (key) => (
        <>
          {!onConnections && (
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                closeSnackbar(key);
                navigate("/connections");
              }}
            >
              {t("connections.health.seeConnections")}
            </Button>
          )}
          <Button color="inherit" size="small" onClick={() => closeSnackbar(key)}>
            {t("connections.health.dismiss")}
          </Button>
        </>
      ),
      onClose: () => {
        if (open.current.get(p.whatsappId) === key) open.current.delete(p.whatsappId);
      },
    });
    open.current.set(p.whatsappId, key);
  });
}
