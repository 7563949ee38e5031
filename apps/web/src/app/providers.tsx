import { TOAST_AUTO_CLOSE_MS } from "@balcao/contract";
import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { QueryClientProvider } from "@tanstack/react-query";
import { SnackbarProvider } from "notistack";
import { type ReactNode, useMemo, useState } from "react";
import { AuthProvider } from "../features/auth/auth-context";
import { useSettings } from "../features/settings/api/get-settings";
import { createQueryClient } from "./query-client";
import { SocketProvider } from "./socket";
import { buildTheme } from "./theme";

function AppTheme({ children }: { children: ReactNode }) {
  const { get } = useSettings();
  const dark = get("darkMode") === "enabled";
  const topbarColor = get("topbarColor");
  const secondaryColor = get("secondaryColor");
  const theme = useMemo(() => buildTheme({ dark, topbarColor, secondaryColor }), [dark, topbarColor, secondaryColor]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}

function Toasts({ children }: { children: ReactNode }) {
  const narrow = useMediaQuery("(max-width:599.95px)");
  return (
    <SnackbarProvider
      maxSnack={3}
      autoHideDuration={TOAST_AUTO_CLOSE_MS}
      anchorOrigin={{ vertical: narrow ? "bottom" : "top", horizontal: narrow ? "center" : "right" }}
    >
      {children}
    </SnackbarProvider>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <SocketProvider>
          <AppTheme>
            <Toasts>{children}</Toasts>
          </AppTheme>
        </SocketProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
