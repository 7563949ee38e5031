import {
  cnpjSettingValue,
  formatCnpj,
  formatCpf,
  isValidCpf,
  normalizeDocument,
  SECRET_ADDRESS_GROUPS,
  type SettingKey,
} from "@balcao/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type ChangeEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/http";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useSettings, useUpdateSetting } from "../api/get-settings";

export type FieldSpec =
  | { key: SettingKey; kind: "text" | "url" | "number" | "multiline" | "secret" | "cpf" | "cnpj" | "color"; help?: string }
  | { key: SettingKey; kind: "switch" }
  | { key: SettingKey; kind: "select"; options: readonly string[] };

/** One section of the settings screen: a card of fields that saves on its own (only what changed). */
export function SettingsSection({
  id,
  fields,
  children,
  warnings,
  check,
  onSaved,
}: {
  id: string;
  fields?: FieldSpec[];
  /** extra content; as a function it reads the values being edited (what a 'Testar' button sends) */
  children?: ReactNode | ((value: (key: SettingKey) => string) => ReactNode);
  /** warnings of the values being edited (a colour without contrast) */
  warnings?: (value: (key: SettingKey) => string) => ReactNode;
  /** a reason not to save these values together (shown as a toast), or undefined */
  check?: (value: (key: SettingKey) => string) => string | undefined;
  /** after everything changed was saved */
  onSaved?: () => void;
}) {
  const { t } = useTranslation();
  const { raw, has } = useSettings();
  const update = useUpdateSetting();
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const value = (f: FieldSpec) => draft[f.key] ?? (f.kind === "secret" ? "" : raw(f.key));
  const setValue = (key: string, v: string) => setDraft((d) => ({ ...d, [key]: v }));
  const dirty = (fields ?? []).filter(
    (f) => draft[f.key] !== undefined && (f.kind === "secret" ? draft[f.key] !== "" : draft[f.key] !== raw(f.key)),
  );

  const clientError = (f: FieldSpec, v: string): string | undefined => {
    if (f.kind === "cpf" && v !== "" && !isValidCpf(v)) return t("settings.cpfInvalid");
    // the server's own check (the contract's schema): the check digits
    if (f.kind === "cnpj" && !cnpjSettingValue.safeParse(v).success) return t("settings.cnpjInvalid");
    if (f.kind === "url" && v !== "" && !/^https?:\/\/[^\s/]+/i.test(v)) return t("settings.urlInvalid");
    if (f.kind === "number" && !/^\d+$/.test(v)) return t("settings.numberInvalid");
    if (f.kind === "color" && !/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(v)) return t("settings.colorInvalid");
    return undefined;
  };

  const save = async () => {
    const errs: Record<string, string> = {};
    for (const f of dirty) {
      const e = clientError(f, draft[f.key]);
      if (e) errs[f.key] = e;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const refused = check?.((key) => draft[key] ?? raw(key));
    if (refused) return toastError(refused);
    setSaving(true);
    try {
      // a saved secret goes only to its saved address: a changed address carries its secret typed again
      const carried = new Set<string>();
      for (const f of dirty) {
        const group = SECRET_ADDRESS_GROUPS.find((g) => (g.address as readonly string[]).includes(f.key));
        const secret = group && draft[group.secret] ? draft[group.secret] : undefined;
        if (group && secret) carried.add(group.secret);
      }
      for (const f of dirty) {
        if (carried.has(f.key)) continue;
        const group = SECRET_ADDRESS_GROUPS.find((g) => (g.address as readonly string[]).includes(f.key));
        const secret = group && draft[group.secret] ? draft[group.secret] : undefined;
        try {
          await update.mutateAsync({ key: f.key, value: draft[f.key], secret });
          setDraft((d) => {
            const { [f.key]: _, ...rest } = d;
            return rest;
          });
        } catch (err) {
          if (err instanceof ApiError && err.fields?.value) setErrors((e) => ({ ...e, [f.key]: err.fields?.value?.[0] ?? "" }));
          const secretField = group?.secret;
          if (err instanceof ApiError && err.fields?.secret && secretField)
            setErrors((e) => ({ ...e, [secretField]: err.fields?.secret?.[0] ?? "" }));
          throw err;
        }
      }
      if (carried.size) setDraft((d) => Object.fromEntries(Object.entries(d).filter(([k]) => !carried.has(k))));
      toastSuccess(t("settings.saved"));
      onSaved?.();
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card component="section" data-testid={`section-${id}`} sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" sx={{ mb: 2 }}>
          {t(`settings.sections.${id}`)}
        </Typography>
        <Stack spacing={2}>
          {fields?.map((f) => {
            const label = t(`settings.fields.${f.key}`);
            const testId = `field-${f.key}`;
            if (f.kind === "switch")
              return (
                <FormControlLabel
                  key={f.key}
                  label={label}
                  control={
                    <Switch
                      checked={value(f) === "enabled"}
                      onChange={(e) => setValue(f.key, e.target.checked ? "enabled" : "disabled")}
                      slotProps={{ input: { "data-testid": testId } as object }}
                    />
                  }
                />
              );
            if (f.kind === "select")
              return (
                <TextField
                  key={f.key}
                  select
                  label={label}
                  value={value(f)}
                  onChange={(e) => setValue(f.key, e.target.value)}
                  data-testid={testId}
                >
                  {f.options.map((o) => (
                    <MenuItem key={o} value={o}>
                      {t(`settings.options.${f.key}.${o}`, { defaultValue: o })}
                    </MenuItem>
                  ))}
                </TextField>
              );
            const v = value(f);
            const help =
              errors[f.key] ??
              (f.help ? t(f.help) : f.kind === "secret" ? (has(f.key) ? t("settings.secretSet") : t("settings.secretUnset")) : undefined);
            return (
              <TextField
                key={f.key}
                label={label}
                type={f.kind === "secret" ? "password" : "text"}
                autoComplete={f.kind === "secret" ? "new-password" : "off"}
                multiline={f.kind === "multiline"}
                minRows={f.kind === "multiline" ? 2 : undefined}
                value={f.kind === "cpf" ? formatCpf(v) : f.kind === "cnpj" ? formatCnpj(v) : v}
                placeholder={f.kind === "secret" && has(f.key) ? "••••••••" : undefined}
                onChange={(e) => {
                  const next =
                    f.kind === "cpf"
                      ? e.target.value.replace(/\D/g, "").slice(0, 11)
                      : f.kind === "cnpj"
                        ? normalizeDocument(e.target.value).slice(0, 14)
                        : e.target.value;
                  setValue(f.key, next);
                }}
                error={Boolean(errors[f.key])}
                helperText={help}
                slotProps={{
                  htmlInput: { "data-testid": testId, ...(f.kind === "cpf" && { inputMode: "numeric" }) },
                  ...(f.kind === "color" && {
                    input: {
                      startAdornment: (
                        <Box
                          component="input"
                          type="color"
                          aria-label={label}
                          value={/^#[0-9a-f]{6}$/i.test(v) ? v : "#000000"}
                          onChange={(e: ChangeEvent<HTMLInputElement>) => setValue(f.key, e.target.value)}
                          sx={{ width: 32, height: 28, p: 0, mr: 1, border: 0, bgcolor: "transparent", cursor: "pointer", flexShrink: 0 }}
                        />
                      ),
                    },
                  }),
                }}
              />
            );
          })}
          {warnings?.((key) => draft[key] ?? raw(key))}
          {typeof children === "function"
            ? children((key) => {
                const f = fields?.find((x) => x.key === key);
                return f ? value(f) : (draft[key] ?? raw(key));
              })
            : children}
          {fields && fields.length > 0 && (
            <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
              <Button variant="contained" onClick={() => void save()} disabled={saving || dirty.length === 0} data-testid={`save-${id}`}>
                {t("settings.save")}
              </Button>
            </Stack>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
