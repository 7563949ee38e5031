import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import type { FormEventHandler, ReactNode } from "react";
import { type DefaultValues, type FieldValues, type Path, useForm } from "react-hook-form";
import { Link as RouterLink } from "react-router-dom";
import type { z } from "zod";
import { toastError, toastSuccess } from "../../lib/toast";
import { localizedResolver } from "../../lib/validation";
import { AuthCard } from "./AuthCard";

/**
 * A login/signup form: the schema validates, `send` calls the server, then the success toast;
 * a failure toasts the server's message (the fields stay as typed).
 */
export function useAuthForm<V extends FieldValues>(
  schema: z.ZodType<V, V>,
  defaultValues: DefaultValues<V>,
  send: (values: V) => Promise<unknown>,
  success: string,
) {
  const form = useForm<V>({ resolver: localizedResolver(schema), defaultValues });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await send(values);
      toastSuccess(success);
    } catch (err) {
      toastError(err);
    }
  });
  return {
    onSubmit,
    submitting: form.formState.isSubmitting,
    /** Spread into a `TextField`: registered, with its error and message. */
    field: (name: Path<V>) => {
      const error = form.formState.errors[name];
      return { ...form.register(name), error: Boolean(error), helperText: error?.message as string | undefined };
    },
  };
}

interface AuthFormProps {
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
  submitLabel: string;
  /** The link under the button to the other auth page (none when that page is not offered). */
  link?: { to: string; label: string };
  children: ReactNode;
}

/** The branded card with the form's fields, the large submit button and the link to the other page. */
export function AuthForm({ title, onSubmit, submitting, submitLabel, link, children }: AuthFormProps) {
  return (
    <AuthCard title={title}>
      <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
        {children}
        <Button type="submit" variant="contained" size="large" disabled={submitting}>
          {submitLabel}
        </Button>
        {link && (
          <Link component={RouterLink} to={link.to} variant="body2" textAlign="center">
            {link.label}
          </Link>
        )}
      </Stack>
    </AuthCard>
  );
}
