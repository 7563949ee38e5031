import { type LoginBody, loginBody } from "@balcao/contract";
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

/** Success lands on /tickets through the public-route guard. */
export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginBody>({ resolver: zodResolver(loginBody), defaultValues: { email: "", password: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await login(values);
      toastSuccess(t("login.success"));
    } catch (err) {
      toastError(err);
    }
  });

  return (
    <AuthCard title={t("login.title")}>
      <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
        <TextField
          label={t("login.email")}
          type="email"
          autoComplete="email"
          autoFocus
          size="medium"
          {...register("email")}
          error={Boolean(errors.email)}
          helperText={errors.email?.message}
        />
        <TextField
          label={t("login.password")}
          type="password"
          autoComplete="current-password"
          size="medium"
          {...register("password")}
          error={Boolean(errors.password)}
          helperText={errors.password?.message}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t("login.submit")}
        </Button>
        <Link component={RouterLink} to="/signup" variant="body2" textAlign="center">
          {t("login.signupLink")}
        </Link>
      </Stack>
    </AuthCard>
  );
}
