import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "../api/http";
import { toastError } from "./toast";
import { validationText } from "./validation";

/** A failed save: field messages from the server go under their fields, and the error toasts. */
export function showSaveError<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>) {
  if (err instanceof ApiError && err.fields) {
    for (const [field, messages] of Object.entries(err.fields)) {
      if (messages[0]) setError(field as Path<T>, { type: "server", message: validationText(messages[0]) });
    }
  }
  toastError(err);
}
