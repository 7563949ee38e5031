import {
  MSG,
  type MyProfile,
  type MyProfileBody,
  USER_LANGUAGES,
  USER_THEMES,
  passwordField,
  requiredText,
  userLanguageSchema,
  userThemeSchema,
} from "@balcao/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type ReactNode, useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ApiError } from "../../../api/http";
import { PageHeader } from "../../../components/PageHeader";
import { fieldProps } from "../../../lib/fields";
import { showSaveError } from "../../../lib/forms";
import { toastSuccess } from "../../../lib/toast";
import { localizedResolver } from "../../../lib/validation";
import { LANGUAGES, type Language } from "../../../locales";
import { useSettings } from "../../settings";
import { useMyProfile, useSaveProfile } from "../api/profile";
import "../i18n";

/** The screen's form: the contract's rules for the name and the password, and the new password typed twice. */
export const profileForm = z
  .object({
    name: requiredText(2, 50),
    currentPassword: z.string().max(200, MSG.tooLong),
    password: z.union([z.literal(""), passwordField]),
    confirmPassword: z.string(),
    language: userLanguageSchema,
    theme: userThemeSchema,
    notificationSound: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (!v.password) return;
    if (!v.currentPassword) ctx.addIssue({ code: "custom", path: ["currentPassword"], message: MSG.required });
    if (v.confirmPassword !== v.password)
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "validation.passwordsDiffer" });
  });
export type ProfileForm = z.infer<typeof profileForm>;

const toValues = (p: MyProfile | undefined, current: string): ProfileForm => ({
  name: p?.name ?? "",
  currentPassword: "",
  password: "",
  confirmPassword: "",
  language: p?.language ?? ((USER_LANGUAGES as readonly string[]).includes(current) ? (current as Language) : "pt-BR"),
  theme: p?.theme ?? "default",
  notificationSound: p?.notificationSound ?? true,
});

/** What the form sends: the name and the preferences, and the password pair only when a new one was typed. */
export function toBody(v: ProfileForm): MyProfileBody {
  return {
    name: v.name,
    language: v.language,
    theme: v.theme,
    notificationSound: v.notificationSound,
    ...(v.password && { password: v.password, currentPassword: v.currentPassword }),
  };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography component="h2" variant="subtitle1" fontWeight={700} sx={{ mb: 2 }}>
          {title}
        </Typography>
        <Stack spacing={2}>{children}</Stack>
      </CardContent>
    </Card>
  );
}

/** /profile, "Meu perfil": any signed-in user's own name, password and preferences; saved together. */
export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const profile = useMyProfile();
  const save = useSaveProfile();
  const { get } = useSettings();
  const installationDark = get("darkMode") === "enabled";
  const form = useForm<ProfileForm>({ resolver: localizedResolver(profileForm), defaultValues: toValues(profile.data, i18n.language) });
  const { reset, handleSubmit, control, setError } = form;
  const { isSubmitting } = form.formState;
  const loadedId = profile.data?.id;

  // the form takes the profile once it is read (and again for another user)
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a newly read profile resets what is being typed
  useEffect(() => {
    if (profile.data) reset(toValues(profile.data, i18n.language));
  }, [loadedId, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(toBody(values));
      reset(toValues(saved, i18n.language));
      toastSuccess(saved.token ? t("profile.passwordChanged") : t("profile.saved"));
    } catch (err) {
      showSaveError(err, setError);
      if (err instanceof ApiError && err.code === "ERR_WRONG_PASSWORD") {
        setError("currentPassword", { type: "server", message: t("errors.ERR_WRONG_PASSWORD") });
      }
    }
  });

  const field = (name: keyof ProfileForm, help?: string) => fieldProps(form, name, help);

  return (
    // the title over the form's columns, not at the screen's edge
    <Box sx={{ width: "100%", maxWidth: 1180, mx: "auto" }}>
      <PageHeader title={t("profile.title")}>
        {profile.data && (
          <Chip label={t(`users.profiles.${profile.data.profile}`)} size="small" variant="outlined" data-testid="profile-role" />
        )}
      </PageHeader>
      <Box sx={{ px: { xs: 1, sm: 3 }, pb: 4 }}>
        {profile.isLoading ? (
          <Box sx={{ display: "flex", justifyContent: "center", py: 6 }} aria-busy="true">
            <CircularProgress aria-label={t("common.loading")} />
          </Box>
        ) : profile.isError ? (
          <Box sx={{ textAlign: "center", py: 6 }}>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t("common.loadError")}
            </Typography>
            <Button variant="outlined" onClick={() => void profile.refetch()}>
              {t("common.retry")}
            </Button>
          </Box>
        ) : (
          <Box component="form" noValidate onSubmit={onSubmit} aria-busy={isSubmitting}>
            {/* two columns on wide screens (account and preferences | password), one on phones */}
            <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "minmax(0, 1fr)", lg: "repeat(2, minmax(0, 1fr))" }, mb: 2 }}>
              <Stack spacing={2}>
                <Section title={t("profile.account")}>
                  <TextField label={t("profile.name")} autoComplete="name" {...field("name")} />
                  <TextField
                    label={t("profile.email")}
                    value={profile.data?.email ?? ""}
                    disabled
                    helperText={t("profile.emailHelp")}
                    slotProps={{ htmlInput: { readOnly: true } }}
                  />
                </Section>
                <Section title={t("profile.preferences")}>
                  <Controller
                    control={control}
                    name="language"
                    render={({ field: f }) => (
                      <TextField select label={t("profile.language")} {...f} data-testid="profile-language">
                        {LANGUAGES.map((l) => (
                          <MenuItem key={l.code} value={l.code} lang={l.code}>
                            {l.label}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                  <Controller
                    control={control}
                    name="theme"
                    render={({ field: f }) => (
                      <TextField select label={t("profile.theme")} {...f} data-testid="profile-theme">
                        {USER_THEMES.map((theme) => (
                          <MenuItem key={theme} value={theme}>
                            {t(`profile.themes.${theme}`, {
                              current: t(`profile.installation.${installationDark ? "dark" : "light"}`),
                            })}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                  <Controller
                    control={control}
                    name="notificationSound"
                    render={({ field: f }) => (
                      <Box>
                        <FormControlLabel
                          control={<Switch checked={f.value} onChange={(e) => f.onChange(e.target.checked)} onBlur={f.onBlur} />}
                          label={t("profile.sound")}
                        />
                        <FormHelperText sx={{ mt: 0 }}>{t("profile.soundHelp")}</FormHelperText>
                      </Box>
                    )}
                  />
                </Section>
              </Stack>

              <Section title={t("profile.password")}>
                <Typography variant="body2" color="text.secondary">
                  {t("profile.passwordHelp")}
                </Typography>
                {/* the e-mail beside the passwords lets a password manager file the new one under the right account */}
                <input type="hidden" autoComplete="username" value={profile.data?.email ?? ""} readOnly />
                <TextField
                  label={t("profile.currentPassword")}
                  type="password"
                  autoComplete="current-password"
                  {...field("currentPassword")}
                />
                <TextField label={t("profile.newPassword")} type="password" autoComplete="new-password" {...field("password")} />
                <TextField
                  label={t("profile.confirmPassword")}
                  type="password"
                  autoComplete="new-password"
                  {...field("confirmPassword", t("profile.passwordNote"))}
                />
              </Section>
            </Box>

            <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
              <Button
                type="submit"
                variant="contained"
                size="large"
                disabled={isSubmitting}
                startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
                sx={{ width: { xs: "100%", sm: "auto" } }}
              >
                {t("profile.save")}
              </Button>
            </Box>
          </Box>
        )}
      </Box>
    </Box>
  );
}
