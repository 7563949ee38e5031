import { createTheme } from "@mui/material/styles";

export interface ThemeInput {
  dark: boolean;
  topbarColor: string;
  secondaryColor: string;
}

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const color = (value: string, fallback: string) => (HEX.test(value.trim()) ? value.trim() : fallback);

/** Light by default, dark when the darkMode setting is enabled; the top bar and accent colours come from settings. */
export function buildTheme({ dark, topbarColor, secondaryColor }: ThemeInput) {
  const primary = color(secondaryColor, dark ? "#52d869" : "#6B62FE");
  const toolbar = color(topbarColor, "#001f3f");
  return createTheme({
    palette: {
      mode: dark ? "dark" : "light",
      primary: { main: primary },
      secondary: { main: dark ? "#52d869" : "#001f3f" },
      background: dark ? { default: "#121212", paper: "#1e1e1e" } : { default: "#f4f5f9", paper: "#ffffff" },
    },
    shape: { borderRadius: 10 },
    typography: { fontFamily: '"Roboto", "Segoe UI", "DejaVu Sans", "Helvetica", "Arial", sans-serif' },
    components: {
      MuiAppBar: { styleOverrides: { root: { backgroundColor: toolbar, backgroundImage: "none", color: "#fff" } } },
      MuiButton: { styleOverrides: { root: { textTransform: "none", fontWeight: 600, whiteSpace: "nowrap", flexShrink: 0 } } },
      MuiCard: { defaultProps: { variant: "outlined" } },
      MuiTextField: { defaultProps: { size: "small", fullWidth: true } },
    },
  });
}
