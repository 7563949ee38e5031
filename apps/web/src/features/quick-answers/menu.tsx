import QuestionAnswerIcon from "@mui/icons-material/QuestionAnswer";
import type { MenuEntry } from "../../lib/features";

export const quickAnswersMenu: MenuEntry = { to: "/quickanswers", labelKey: "menu.quickAnswers", icon: <QuestionAnswerIcon /> };
