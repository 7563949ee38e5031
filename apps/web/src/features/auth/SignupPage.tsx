import { type SignupBody, signupBody } from "@balcao/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { AuthCard } from "./AuthCard";
import { AuthForm, useAuthForm } from "./AuthForm";
import { colorsQuery } from "./api/get-colors";
import { useAuth } from "./auth-context";

/**
 * Signup, only while the userCreation setting is enabled (GET /colors says so; the server refuses
 * with ERR_USER_CREATION_DISABLED otherwise). Sign-up off: a page that says so and leads to the
 * login, no form to fill in vain. Should /colors fail, the form shows and the server decides.
 */
export default function SignupPage() {
  const { t } = useTranslation();
  const colors = useQuery(colorsQuery);
  if (colors.isPending) {
    return (
      <AuthCard title={t("signup.title")}>
        <Box sx={{ display: "flex", justifyContent: "center", py: 3 }}>
          <CircularProgress aria-label={t("signup.title")} />
        </Box>
      </AuthCard>
    );
  }
  if (colors.data && colors.data.userCreation !== "enabled") {
    return (
      <AuthCard title={t("signup.offTitle")}>
        <Box sx={{ display: "grid", gap: 2 }} data-testid="signup-off">
          <Typography variant="body1" color="text.secondary" textAlign="center">
            {t("signup.offText")}
          </Typography>
          <Button component={RouterLink} to="/login" variant="contained" size="large">
            {t("signup.offLogin")}
          </Button>
        </Box>
      </AuthCard>
    );
  }
  return <SignupForm />;
}

function SignupForm() {
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
