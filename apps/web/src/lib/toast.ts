import { enqueueSnackbar } from "notistack";
import { errorMessage } from "../api/errors";
import i18n from "../locales";

export function toastSuccess(message: string) {
  enqueueSnackbar(message, { variant: "success" });
}

export function toastInfo(message: string) {
  enqueueSnackbar(message, { variant: "info" });
}

/** The shared error handler: translated ERR_… message, else raw text, else '500 Erro Interno no Servidor'. */
export function toastError(err: unknown) {
  const message = errorMessage(err, (key) => (i18n.exists(key) ? i18n.t(key) : undefined));
  enqueueSnackbar(message, { variant: "error" });
}
