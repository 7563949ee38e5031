import LockIcon from "@mui/icons-material/Lock";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, http } from "../../../api/http";
import { toastError } from "../../../lib/toast";
import { useAuth } from "../../auth";
import { useMergeSetting } from "../api/get-settings";
import { unlockSettings } from "../api/settings-token";

/**
 * 'Acesso restrito': the settings password, checked by the server. Before one exists, the first
 * admin here creates it.
 */
export function SettingsGate({ passwordSet }: { passwordSet: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const merge = useMergeSetting();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!passwordSet) {
      if (password.length < 6) return setError(t("settings.gate.tooShort"));
      if (password !== confirm) return setError(t("settings.gate.mismatch"));
    }
    setBusy(true);
    try {
      if (!passwordSet) merge(await http.put("/settings/settingsPassword", { value: password }));
      await unlockSettings(password, user?.id ?? 0);
    } catch (err) {
      if (err instanceof ApiError && err.code === "ERR_WRONG_SETTINGS_PASSWORD") setError(t("errors.ERR_WRONG_SETTINGS_PASSWORD"));
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card sx={{ maxWidth: 420, mx: "auto", mt: { xs: 2, sm: 6 } }} data-testid="settings-gate">
      <CardContent component="form" onSubmit={submit}>
        <Stack spacing={2}>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
            <LockIcon color="primary" />
            <Typography variant="h6">{t("settings.gate.title")}</Typography>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {passwordSet ? t("settings.gate.ask") : t("settings.gate.create")}
          </Typography>
          <TextField
            type="password"
            label={t("settings.gate.password")}
            autoComplete={passwordSet ? "current-password" : "new-password"}
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            slotProps={{ htmlInput: { "data-testid": "settings-password" } }}
          />
          {!passwordSet && (
            <TextField
              type="password"
              label={t("settings.gate.confirm")}
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              slotProps={{ htmlInput: { "data-testid": "settings-password-confirm" } }}
            />
          )}
          {error && (
            <Alert severity="error" data-testid="settings-gate-error">
              {error}
            </Alert>
          )}
          <Button type="submit" variant="contained" disabled={busy || !password} data-testid="settings-enter">
            {passwordSet ? t("settings.gate.enter") : t("settings.gate.createButton")}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
