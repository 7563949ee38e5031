import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/PageHeader";
import { useAuth } from "../auth";
import { FinanceFrame } from "./FinanceFrame";

/** An embedded finance page: its base address is the financeBaseUrl setting (Configurações → Integração). */
export function EmbeddedPage({ titleKey, path, withUser }: { titleKey: string; path: string; withUser: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <FinanceFrame title={t(titleKey)} path={path} query={withUser && user ? { id: user.id } : undefined} />
    </>
  );
}
