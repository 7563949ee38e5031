import VolumeOffIcon from "@mui/icons-material/VolumeOff";
import VolumeUpIcon from "@mui/icons-material/VolumeUp";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Popover from "@mui/material/Popover";
import Slider from "@mui/material/Slider";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { VOLUME_KEY, readVolume } from "../../lib/volume";

function VolumeSlider({ value, onChange, label }: { value: number; onChange: (v: number) => void; label: string }) {
  return (
    <Slider
      size="small"
      min={0}
      max={1}
      step={0.1}
      value={value}
      onChange={(_e, v) => onChange(v as number)}
      aria-label={label}
      valueLabelDisplay="auto"
      sx={{ color: "inherit" }}
    />
  );
}

/** Inline in the top bar on wide screens; behind an icon on phones. */
export function VolumeControl() {
  const { t } = useTranslation();
  const [volume, setVolume] = useState(readVolume);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const change = (v: number) => {
    const rounded = Math.round(v * 10) / 10;
    setVolume(rounded);
    localStorage.setItem(VOLUME_KEY, String(rounded));
  };
  const Icon = volume === 0 ? VolumeOffIcon : VolumeUpIcon;
  return (
    <>
      <Box sx={{ display: { xs: "none", sm: "flex" }, alignItems: "center", gap: 1, width: 140, mx: 1 }}>
        <Icon fontSize="small" />
        <VolumeSlider value={volume} onChange={change} label={t("topbar.volume")} />
      </Box>
      <IconButton
        color="inherit"
        sx={{ display: { xs: "inline-flex", sm: "none" } }}
        aria-label={t("topbar.volume")}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <Icon />
      </IconButton>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      >
        <Box sx={{ width: 200, px: 2.5, py: 1.5 }}>
          <VolumeSlider value={volume} onChange={change} label={t("topbar.volume")} />
        </Box>
      </Popover>
    </>
  );
}
