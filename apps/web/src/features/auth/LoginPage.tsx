import { type LoginBody, loginBody } from "@balcao/contract";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import { AuthForm, useAuthForm } from "./AuthForm";
import { useSignupEnabled } from "./api/get-colors";
import { useAuth } from "./auth-context";

/** Success lands on /tickets through the public-route guard. */
export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const signupEnabled = useSignupEnabled();
  const { onSubmit, submitting, field } = useAuthForm<LoginBody>(loginBody, { email: "", password: "" }, login, t("login.success"));

  return (
    <AuthForm
      title={t("login.title")}
      onSubmit={onSubmit}
      submitting={submitting}
      submitLabel={t("login.submit")}
      link={signupEnabled ? { to: "/signup", label: t("login.signupLink") } : undefined}
    >
      <TextField label={t("login.email")} type="email" autoComplete="email" autoFocus size="medium" {...field("email")} />
      <TextField label={t("login.password")} type="password" autoComplete="current-password" size="medium" {...field("password")} />
    </AuthForm>
  );
}
