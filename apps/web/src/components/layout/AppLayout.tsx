import { DRAWER_WIDTH } from "@balcao/contract";
import LogoutIcon from "@mui/icons-material/Logout";
import MenuIcon from "@mui/icons-material/Menu";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Toolbar from "@mui/material/Toolbar";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { type ReactNode, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useNavigation } from "react-router-dom";
import type { MenuEntry } from "../../lib/features";
import { FullPageSpinner } from "../FullPageSpinner";
import { DrawerMenu } from "./DrawerMenu";
import { UserMenu } from "./UserMenu";

const COMPACT_WIDTH = 64;

interface AppLayoutProps {
  /** The top bar's image. */
  logo: string;
  userName: string | undefined;
  /** The top bar's buttons between the user's name and the logout. */
  actions: ReactNode;
  onLogout: () => void;
  /** Opens the user's own profile ("Meu perfil", from the menu of the user's name). */
  onProfile: () => void;
  /** The drawer's entries: everyone's, and the administration section's (empty: none). */
  menu: MenuEntry[];
  adminMenu: MenuEntry[];
  /** Shown above every screen (the outage banner); renders nothing when there is nothing to say. */
  banner?: ReactNode;
}

/** The shell: top bar and the 220 px drawer (a temporary drawer on phones, a collapsible one above). */
export function AppLayout({ logo, userName, actions, onLogout, onProfile, menu, adminMenu, banner }: AppLayoutProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up("md"), { noSsr: true });
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const navigation = useNavigation();

  const width = desktopOpen ? DRAWER_WIDTH : COMPACT_WIDTH;

  return (
    <Box sx={{ display: "flex", height: "100dvh", overflow: "hidden" }}>
      <AppBar position="fixed" elevation={1} sx={{ zIndex: (th) => th.zIndex.drawer + 1 }}>
        <Toolbar sx={{ gap: { xs: 0, sm: 0.5 }, px: { xs: 1, sm: 2 } }}>
          <IconButton
            color="inherit"
            edge="start"
            aria-label={t("topbar.toggleDrawer")}
            onClick={() => (desktop ? setDesktopOpen((o) => !o) : setMobileOpen((o) => !o))}
          >
            <MenuIcon />
          </IconButton>
          <Box component="img" src={logo} alt="Balcão" sx={{ height: 32, width: 32, ml: 1, objectFit: "contain" }} />
          <Typography variant="h6" noWrap sx={{ ml: 1, fontWeight: 700, display: { xs: "none", sm: "block" } }}>
            Balcão
          </Typography>
          <Box sx={{ flexGrow: 1 }} />
          {actions}
          <UserMenu userName={userName} onProfile={onProfile} onLogout={onLogout} />
          {/* on phones "Sair" is in the user's menu: the bar keeps its room */}
          <Tooltip title={t("topbar.logout")}>
            <IconButton
              color="inherit"
              aria-label={t("topbar.logout")}
              onClick={onLogout}
              sx={{ display: { xs: "none", md: "inline-flex" } }}
            >
              <LogoutIcon />
            </IconButton>
          </Tooltip>
        </Toolbar>
      </AppBar>

      {desktop ? (
        <Drawer
          variant="permanent"
          sx={{
            width,
            flexShrink: 0,
            transition: "width 200ms",
            "& .MuiDrawer-paper": { width, overflowX: "hidden", transition: "width 200ms", boxSizing: "border-box" },
          }}
        >
          <Toolbar />
          <DrawerMenu items={menu} adminItems={adminMenu} compact={!desktopOpen} />
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ "& .MuiDrawer-paper": { width: DRAWER_WIDTH, boxSizing: "border-box" } }}
        >
          <Toolbar />
          <DrawerMenu items={menu} adminItems={adminMenu} compact={false} onNavigate={() => setMobileOpen(false)} />
        </Drawer>
      )}

      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, display: "flex", flexDirection: "column", height: "100dvh" }}>
        <Toolbar />
        {banner}
        {/* a screen that fills the height scrolls its own parts; any other (the dashboard, a long form) scrolls here */}
        <Box
          sx={{
            flex: 1,
            minHeight: 0,
            overflowY: "auto",
            display: "flex",
            flexDirection: "column",
            opacity: navigation.state === "loading" ? 0.6 : 1,
          }}
        >
          <Suspense fallback={<FullPageSpinner />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
