import type { Whatsapp } from "@balcao/contract";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError, toastSuccess } from "../../../../lib/toast";
import { useRegenerateToken } from "../../api/connections";
import { SectionTitle } from "./parts";

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  const area = document.createElement("textarea");
  area.value = text;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy failed");
}

/**
 * API: the message API's token. It is write-only: made by 'Gerar novo token' and shown once, in
 * this section only, never fetched again.
 */
export function ApiTokenSection({ current }: { current: Whatsapp | null }) {
  const { t } = useTranslation();
  const regenerate = useRegenerateToken();
  const [newToken, setNewToken] = useState("");

  const generateToken = async () => {
    if (!current) return;
    try {
      setNewToken((await regenerate.mutateAsync(current.id)).token);
    } catch (err) {
      toastError(err);
    }
  };

  const copyToken = async () => {
    try {
      await copyText(newToken);
      toastSuccess(t("connections.form.copied"));
    } catch {
      toastError(t("connections.form.copyFailed"));
    }
  };

  return (
    <>
      <SectionTitle title={t("connections.form.api")} />
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="body2" sx={{ flex: 1, minWidth: 200 }} data-testid="token-state">
          {!current
            ? t("connections.form.tokenAfterSave")
            : current.hasToken || newToken
              ? t("connections.form.tokenSet")
              : t("connections.form.tokenUnset")}
        </Typography>
        {current && (
          <Button
            variant="outlined"
            size="small"
            startIcon={<AutorenewIcon fontSize="small" />}
            disabled={regenerate.isPending}
            onClick={() => void generateToken()}
          >
            {t("connections.form.generate")}
          </Button>
        )}
      </Box>
      {newToken && (
        <TextField
          label={t("connections.form.newToken")}
          value={newToken}
          helperText={t("connections.form.newTokenHelp")}
          slotProps={{
            htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: "monospace" } },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={t("connections.form.copy")}>
                    <IconButton aria-label={t("connections.form.copy")} edge="end" onClick={() => void copyToken()}>
                      <ContentCopyIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    </>
  );
}
