import { useTranslation } from "react-i18next";
import { ComingSoonPage } from "./ComingSoonPage";

export default function TicketsPlaceholder() {
  const { t } = useTranslation();
  return <ComingSoonPage titleKey="pages.tickets" text={t("pages.ticketsEmpty")} />;
}
