import { useEffect } from "react";
import { type DefaultValues, type FieldValues, type Path, useForm } from "react-hook-form";
import type { z } from "zod";
import { fieldProps } from "./fields";
import { showSaveError } from "./forms";
import { toastSuccess } from "./toast";
import { localizedResolver } from "./validation";

interface EntityFormOptions<E, V extends FieldValues, O> {
  /** Each time the dialog opens, the form is reset to `toValues(entity)` (a stable function). */
  open: boolean;
  entity: E;
  toValues: (entity: E) => V;
  schema: z.ZodType<O, V>;
  /** Sends the validated values; a rejection puts the server's field messages under the fields and toasts. */
  save: (values: O) => Promise<unknown>;
  /** The success toast; the dialog then closes. */
  saved: string;
  onClose: () => void;
}

/**
 * The add/edit form of a `FormDialog`: react-hook-form with the zod schema, reset on open,
 * save → success toast → close, or the server's errors under their fields.
 */
export function useEntityForm<E, V extends FieldValues, O>({
  open,
  entity,
  toValues,
  schema,
  save,
  saved,
  onClose,
}: EntityFormOptions<E, V, O>) {
  const form = useForm<V, unknown, O>({ resolver: localizedResolver(schema), defaultValues: toValues(entity) as DefaultValues<V> });
  const { reset, setError, handleSubmit } = form;
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (open) reset(toValues(entity));
  }, [open, entity, reset, toValues]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save(values);
      toastSuccess(saved);
      onClose();
    } catch (err) {
      showSaveError(err, setError);
    }
  });

  return {
    form,
    errors,
    /** Spread into `FormDialog`. */
    dialogProps: { open, onClose, onSubmit, submitting: isSubmitting },
    /** Spread into a `TextField`: registered, with its error and message (else `help`). */
    field: (name: Path<V>, help?: string) => fieldProps(form, name, help),
  };
}
