import { type SignupBody, signupBody } from "@balcao/contract";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import { AuthForm, useAuthForm } from "./AuthForm";
import { useAuth } from "./auth-context";

/** Signup: the server refuses it (ERR_USER_CREATION_DISABLED) unless the userCreation setting is enabled. */
export default function SignupPage() {
  const { t } = useTranslation();
  const { signup } = useAuth();
  const { onSubmit, submitting, field } = useAuthForm<SignupBody>(
    signupBody,
    { name: "", email: "", password: "" },
    signup,
    t("signup.success"),
  );

  return (
    <AuthForm
      title={t("signup.title")}
      onSubmit={onSubmit}
      submitting={submitting}
      submitLabel={t("signup.submit")}
      link={{ to: "/login", label: t("signup.loginLink") }}
    >
      <TextField label={t("signup.name")} autoFocus size="medium" {...field("name")} />
      <TextField label={t("login.email")} type="email" size="medium" {...field("email")} />
      <TextField label={t("login.password")} type="password" autoComplete="new-password" size="medium" {...field("password")} />
    </AuthForm>
  );
}
