import AccountCircleIcon from "@mui/icons-material/AccountCircle";
import LogoutIcon from "@mui/icons-material/Logout";
import PersonIcon from "@mui/icons-material/Person";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Divider from "@mui/material/Divider";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";

interface UserMenuProps {
  userName: string | undefined;
  onProfile: () => void;
  onLogout: () => void;
}

/** The signed-in user's name in the top bar (an icon alone on phones): a menu with "Meu perfil" and "Sair". */
export function UserMenu({ userName, onProfile, onLogout }: UserMenuProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <ButtonBase
        aria-label={t("topbar.account", { name: userName ?? "" })}
        aria-haspopup="menu"
        aria-expanded={anchor ? "true" : undefined}
        aria-controls={anchor ? "user-menu" : undefined}
        data-testid="user-menu-button"
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{
          color: "inherit",
          borderRadius: 5,
          gap: 0.75,
          px: { xs: 1, md: 1.25 },
          py: 0.75,
          mx: 0.5,
          minWidth: 0,
          maxWidth: { md: 220 },
          "&:hover, &.Mui-focusVisible": { bgcolor: "rgba(255, 255, 255, 0.12)" },
        }}
      >
        <AccountCircleIcon />
        <Typography variant="body2" noWrap sx={{ display: { xs: "none", md: "block" }, opacity: 0.9 }} data-testid="topbar-user-name">
          {userName}
        </Typography>
      </ButtonBase>
      <Menu
        id="user-menu"
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ paper: { sx: { minWidth: 200 } } }}
      >
        {/* on phones the name is not in the bar: the menu says whose account it is */}
        <Box sx={{ px: 2, py: 1, display: { xs: "block", md: "none" } }}>
          <Typography variant="subtitle2" noWrap>
            {userName}
          </Typography>
        </Box>
        <Divider sx={{ display: { xs: "block", md: "none" } }} />
        <MenuItem
          onClick={() => {
            close();
            onProfile();
          }}
        >
          <ListItemIcon>
            <PersonIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("topbar.profile")}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            onLogout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("topbar.logout")}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
