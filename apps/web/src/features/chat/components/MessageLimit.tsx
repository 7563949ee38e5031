import { MESSAGE_BODY_MAX, MESSAGE_COUNTER_FROM } from "@balcao/contract";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";

/** Where a text stands against the message limit: shown from MESSAGE_COUNTER_FROM of it on; over it, not sent. */
export function messageLimit(length: number, max = MESSAGE_BODY_MAX): { show: boolean; over: boolean; left: number } {
  return { show: length >= Math.floor(max * MESSAGE_COUNTER_FROM), over: length > max, left: max - length };
}

/** The composer's counter near the limit: "1.234 / 65.536", red and explained once over it (send disabled). */
export function MessageLimitCounter({ length, max = MESSAGE_BODY_MAX }: { length: number; max?: number }) {
  const { t, i18n } = useTranslation();
  const state = messageLimit(length, max);
  if (!state.show) return null;
  const n = (v: number) => v.toLocaleString(i18n.language);
  return (
    <Typography
      variant="caption"
      component="div"
      role="status"
      aria-live="polite"
      color={state.over ? "error" : "text.secondary"}
      sx={{ textAlign: "right", mt: 0.25 }}
      data-testid="message-limit"
    >
      {state.over ? t("chat.overLimit", { over: n(-state.left), max: n(max) }) : t("chat.nearLimit", { length: n(length), max: n(max) })}
    </Typography>
  );
}
