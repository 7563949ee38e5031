import { TOAST_AUTO_CLOSE_MS } from "@balcao/contract";
import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { QueryClientProvider } from "@tanstack/react-query";
import { SnackbarProvider } from "notistack";
import { type ReactNode, useMemo, useState } from "react";
import { AuthProvider, useAuth } from "../features/auth";
import { resolveDark, useThemePreference } from "../features/profile";
import { FaviconSync, useSettings } from "../features/settings";
import { SocketProvider } from "../lib/socket";
import { createQueryClient } from "./query-client";
import { buildTheme } from "./theme";

/** The socket of the signed-in user. */
function UserSocket({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  return <SocketProvider userId={user?.id}>{children}</SocketProvider>;
}

function AppTheme({ children }: { children: ReactNode }) {
  const { get } = useSettings();
  // the installation's default (darkMode), unless the signed-in user chose light or dark for themselves
  const dark = resolveDark(useThemePreference(), get("darkMode") === "enabled");
  const topbarColor = get("topbarColor");
  const secondaryColor = get("secondaryColor");
  const theme = useMemo(() => buildTheme({ dark, topbarColor, secondaryColor }), [dark, topbarColor, secondaryColor]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <FaviconSync />
      {children}
    </ThemeProvider>
  );
}

/**
 * Toasts at the bottom, clear of the top bar's controls: at the left on desktops (below the
 * drawer's entries and the end of the list, away from the chat's send button), across the bottom
 * on phones.
 */
function Toasts({ children }: { children: ReactNode }) {
  const narrow = useMediaQuery("(max-width:599.95px)");
  return (
    <SnackbarProvider
      maxSnack={3}
      autoHideDuration={TOAST_AUTO_CLOSE_MS}
      anchorOrigin={{ vertical: "bottom", horizontal: narrow ? "center" : "left" }}
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
        <UserSocket>
          <AppTheme>
            <Toasts>{children}</Toasts>
          </AppTheme>
        </UserSocket>
      </AuthProvider>
    </QueryClientProvider>
  );
}
