import DarkModeIcon from "@mui/icons-material/DarkMode";
import LightModeIcon from "@mui/icons-material/LightMode";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";
import { useSettings, useUpdateSetting } from "../api/get-settings";

/** The top bar's switch of the server-wide dark mode (admins). */
export function DarkModeToggle() {
  const { t } = useTranslation();
  const { get } = useSettings();
  const update = useUpdateSetting();
  const dark = get("darkMode") === "enabled";
  const label = dark ? t("topbar.lightMode") : t("topbar.darkMode");
  return (
    <Tooltip title={label}>
      <IconButton
        color="inherit"
        aria-label={label}
        aria-pressed={dark}
        disabled={update.isPending}
        onClick={() => update.mutate({ key: "darkMode", value: dark ? "disabled" : "enabled" })}
      >
        {dark ? <LightModeIcon /> : <DarkModeIcon />}
      </IconButton>
    </Tooltip>
  );
}
