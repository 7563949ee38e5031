import Divider from "@mui/material/Divider";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import ListSubheader from "@mui/material/ListSubheader";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router-dom";
import type { MenuEntry } from "../../lib/features";

function MenuLink({ item, compact, onNavigate }: { item: MenuEntry; compact: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active =
    pathname.toLowerCase() === item.to || (item.to === "/tickets" && (pathname === "/" || pathname.toLowerCase().startsWith("/tickets")));
  const label = t(item.labelKey);
  const icon = item.Badge ? <item.Badge>{item.icon}</item.Badge> : item.icon;
  return (
    <Tooltip title={compact ? label : ""} placement="right">
      <ListItemButton
        component={NavLink}
        to={item.to}
        selected={active}
        onClick={onNavigate}
        sx={{ minHeight: 44, px: 2.25, borderRadius: 2, mx: 0.75, my: 0.25 }}
      >
        <ListItemIcon sx={{ minWidth: compact ? 0 : 40 }}>{icon}</ListItemIcon>
        {!compact && <ListItemText primary={label} slotProps={{ primary: { noWrap: true, fontSize: 14 } }} />}
      </ListItemButton>
    </Tooltip>
  );
}

interface DrawerMenuProps {
  /** Everyone's entries, in order. */
  items: MenuEntry[];
  /** The administration section's entries, in order (none: no section). */
  adminItems: MenuEntry[];
  compact: boolean;
  onNavigate?: () => void;
}

/** The drawer's entries, as the app lists them for the signed-in user's role (core §2). */
export function DrawerMenu({ items, adminItems, compact, onNavigate }: DrawerMenuProps) {
  const { t } = useTranslation();
  return (
    <List component="nav" aria-label="menu" sx={{ py: 1 }}>
      {items.map((item) => (
        <MenuLink key={item.to} item={item} compact={compact} onNavigate={onNavigate} />
      ))}
      {adminItems.length > 0 && (
        <>
          <Divider sx={{ my: 1 }} />
          {!compact && (
            <ListSubheader disableSticky sx={{ lineHeight: "32px", bgcolor: "transparent" }}>
              {t("menu.administration")}
            </ListSubheader>
          )}
          {adminItems.map((item) => (
            <MenuLink key={item.to} item={item} compact={compact} onNavigate={onNavigate} />
          ))}
        </>
      )}
    </List>
  );
}
