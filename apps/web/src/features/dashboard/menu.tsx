import DashboardIcon from "@mui/icons-material/Dashboard";
import type { MenuEntry } from "../../lib/features";

export const dashboardMenu: MenuEntry = {
  to: "/dashboard",
  labelKey: "menu.dashboard",
  icon: <DashboardIcon />,
  admin: true,
  supervisor: true,
};
