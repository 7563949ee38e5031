import { type SignupBody, signupBody } from "@balcao/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { toastError, toastSuccess } from "../../lib/toast";
import { AuthCard } from "./AuthCard";
import { useAuth } from "./auth-context";

/** Signup: the server refuses it (ERR_USER_CREATION_DISABLED) unless the userCreation setting is enabled. */
export default function SignupPage() {
  const { t } = useTranslation();
  const { signup } = useAuth();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignupBody>({ resolver: zodResolver(signupBody), defaultValues: { name: "", email: "", password: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signup(values);
      toastSuccess(t("signup.success"));
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <AuthCard title={t("signup.title")}>
      <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
        <TextField
          label={t("signup.name")}
          autoFocus
          size="medium"
          {...register("name")}
          error={Boolean(errors.name)}
          helperText={errors.name?.message}
        />
        <TextField
          label={t("login.email")}
          type="email"
          size="medium"
          {...register("email")}
          error={Boolean(errors.email)}
          helperText={errors.email?.message}
        />
        <TextField
          label={t("login.password")}
          type="password"
          autoComplete="new-password"
          size="medium"
          {...register("password")}
          error={Boolean(errors.password)}
          helperText={errors.password?.message}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t("signup.submit")}
        </Button>
        <Link component={RouterLink} to="/login" variant="body2" textAlign="center">
          {t("signup.loginLink")}
        </Link>
      </Stack>
    </AuthCard>
  );
}
