import ReportProblemIcon from "@mui/icons-material/ReportProblem";
import type { MenuEntry } from "../../lib/features";

export const incidentsMenu: MenuEntry = {
  to: "/incidents",
  labelKey: "menu.incidents",
  icon: <ReportProblemIcon />,
  admin: true,
  supervisor: true,
};
