import type { Whatsapp } from "@balcao/contract";
import CloseIcon from "@mui/icons-material/Close";
import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { toDataURL } from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * The QR string drawn as a PNG data URL (black on white, whatever the theme, so phones read it).
 * While a new code is being drawn the previous image stays, so a refreshed QR does not flicker;
 * `drawn` tells which string the image holds.
 */
function useQrImage(value: string): { url: string; drawn: string; failed: boolean } {
  const [state, setState] = useState({ drawn: "", url: "", failed: false });
  useEffect(() => {
    // closed (or paired): forget the image, so the next opening never shows another code
    if (!value) return setState({ drawn: "", url: "", failed: false });
    let cancelled = false;
    toDataURL(value, { errorCorrectionLevel: "M", margin: 2, width: 288, color: { dark: "#000000", light: "#ffffff" } })
      .then((url) => !cancelled && setState({ drawn: value, url, failed: false }))
      .catch(() => !cancelled && setState({ drawn: value, url: "", failed: true }));
    return () => {
      cancelled = true;
    };
  }, [value]);
  return state;
}

/**
 * The connection's QR code, live: a new code replaces the image, and the dialog closes when the
 * server reports an empty code (paired, disconnected or deleted).
 */
export function QrCodeDialog({ connection, onClose }: { connection: Whatsapp | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down("sm"));
  const qrcode = connection?.qrcode ?? "";
  const open = Boolean(qrcode);
  const { url, drawn, failed } = useQrImage(qrcode);

  useEffect(() => {
    if (!qrcode) onClose();
  }, [qrcode, onClose]);

  const name = connection?.name ?? "";
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} maxWidth="xs" fullWidth aria-labelledby="qr-dialog-title">
      <DialogTitle id="qr-dialog-title" sx={{ pr: 6 }}>
        {t("connections.qr.title", { name })}
        <IconButton aria-label={t("common.close")} onClick={onClose} sx={{ position: "absolute", right: 8, top: 10 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 2 }}>
        <Box
          sx={{
            width: "100%",
            maxWidth: 288,
            aspectRatio: "1",
            bgcolor: "#fff",
            borderRadius: 2,
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            overflow: "hidden",
            border: 1,
            borderColor: "divider",
          }}
        >
          {url ? (
            <Box
              component="img"
              src={url}
              alt={t("connections.qr.alt", { name })}
              data-testid="qr-image"
              data-qrcode={drawn}
              sx={{ width: "100%", height: "100%", display: "block", imageRendering: "pixelated" }}
            />
          ) : failed && drawn === qrcode ? (
            <Typography color="error" variant="body2" sx={{ p: 2, textAlign: "center" }}>
              {t("connections.qr.renderError")}
            </Typography>
          ) : (
            <CircularProgress aria-label={t("connections.qr.waiting")} />
          )}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: "center" }}>
          {connection?.type === "simulator" ? t("connections.qr.simulatorHelp") : t("connections.qr.help")}
        </Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        {connection?.type === "simulator" && (
          <Button href="/simulator" target="_blank" rel="noopener" endIcon={<OpenInNewIcon fontSize="small" />}>
            {t("connections.qr.openSimulator")}
          </Button>
        )}
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
