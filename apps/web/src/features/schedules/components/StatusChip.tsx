import type { ScheduleStatus } from "@balcao/contract";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";

const COLORS: Record<ScheduleStatus, "info" | "success" | "default" | "error"> = {
  pending: "info",
  sent: "success",
  canceled: "default",
  failed: "error",
};

/** §4: Agendado, Enviado, Cancelado, Com erro (a missing status is pending); the reason in a tooltip. */
export function StatusChip({ status, reason, queued }: { status: ScheduleStatus | undefined; reason?: string; queued?: boolean }) {
  const { t } = useTranslation();
  const s = status ?? "pending";
  const chip = (
    <Chip
      size="small"
      color={COLORS[s]}
      variant={s === "canceled" ? "outlined" : "filled"}
      label={t(`schedules.statuses.${s}`)}
      data-testid="schedule-status"
      data-status={s}
    />
  );
  const why = reason ? t(`schedules.reasons.${reason}`, { defaultValue: reason }) : queued && s === "sent" ? t("schedules.queued") : "";
  if (!why) return chip;
  return (
    <Tooltip title={why}>
      <span>{chip}</span>
    </Tooltip>
  );
}
