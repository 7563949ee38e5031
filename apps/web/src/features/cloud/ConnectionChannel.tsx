import type { Whatsapp } from "@balcao/contract";
import { useTranslation } from "react-i18next";
import "./i18n";

/** What a connection card says of its channel: the chip's label and, for the Cloud API, Meta's limits. */
export function useConnectionChannel(w: Whatsapp): { label?: string; limits?: string } {
  const { t, i18n } = useTranslation();
  if (w.type === "baileys") return { label: t("cloud.chipBaileys") };
  if (w.type !== "cloud") return {};
  return {
    label: t("cloud.chip"),
    limits: w.cloud?.tierLimit ? t("cloud.limits", { tier: w.cloud.tierLimit.toLocaleString(i18n.language) }) : t("cloud.limitsUnknown"),
  };
}
