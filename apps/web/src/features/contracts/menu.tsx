import DescriptionIcon from "@mui/icons-material/Description";
import type { MenuEntry } from "../../lib/features";

export const contractsMenu: MenuEntry = {
  to: "/contratos",
  labelKey: "menu.contracts",
  icon: <DescriptionIcon />,
  admin: true,
  setting: "enableContract",
};
