import { type FieldError, type FieldErrors, type FieldValues, get, type Path, type UseFormRegister } from "react-hook-form";

interface FormParts<T extends FieldValues> {
  register: UseFormRegister<T>;
  formState: { errors: FieldErrors<T> };
}

/** A field's error state for a MUI input: red when invalid, the message under it, else `help` (if any). */
export function fieldError<T extends FieldValues>(form: FormParts<T>, name: Path<T>, help?: string) {
  const error: FieldError | undefined = get(form.formState.errors, name);
  return { error: Boolean(error), helperText: error?.message ?? help };
}

/** A registered MUI TextField: `{...fieldProps(form, "name")}` wires value, error and message. */
export function fieldProps<T extends FieldValues>(form: FormParts<T>, name: Path<T>, help?: string) {
  return { ...form.register(name), ...fieldError(form, name, help) };
}
