import type { Theme } from "@mui/material/styles";

/** The internal note's look: a soft yellow that reads as "not sent", in light and dark mode. */
export const noteBg = (th: Theme) => (th.palette.mode === "dark" ? "rgba(255, 202, 40, 0.14)" : "#fff8e1");
export const noteBorder = (th: Theme) => (th.palette.mode === "dark" ? "rgba(255, 202, 40, 0.45)" : "#ffca28");
export const noteText = (th: Theme) => (th.palette.mode === "dark" ? "#ffe082" : "#8d6e00");
