import TranslateIcon from "@mui/icons-material/Translate";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGES, type Language, setLanguage } from "../../locales";

/**
 * The language choice, stored locally (a stored choice wins over the browser's language); `onChange`
 * hears it too (the shell keeps it on the user's account).
 */
export function LanguageMenu({ onChange }: { onChange?: (lng: Language) => void } = {}) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t("topbar.language")}
        title={t("topbar.language")}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <TranslateIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((l) => (
          <MenuItem
            key={l.code}
            lang={l.code}
            selected={i18n.language === l.code}
            onClick={() => {
              if (l.code !== i18n.language) onChange?.(l.code);
              void setLanguage(l.code);
              setAnchor(null);
            }}
          >
            {l.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
