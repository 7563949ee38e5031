import { MSG, type Whatsapp, whatsappBody } from "@balcao/contract";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useEffect, useState } from "react";
import { type Control, Controller, type Path, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ApiError } from "../../../api/http";
import { FormDialog } from "../../../components/FormDialog";
import { showSaveError } from "../../../lib/forms";
import { toastError, toastSuccess } from "../../../lib/toast";
import { localizedResolver, validationText } from "../../../lib/validation";
import { QueueMultiSelect } from "../../queues";
import { type TypebotInput, useRegenerateToken, useSaveConnection, useSaveTypebot } from "../api/connections";

/**
 * The form: the connection's fields (contract rules: name 2–50 …) and its bot settings. The API
 * token is not a field: it is write-only, made by 'Gerar novo token' and shown once.
 */
export const connectionForm = whatsappBody.omit({ token: true }).extend({
  typebot: z.object({
    enabled: z.boolean(),
    baseUrl: z.string().trim().max(500, MSG.tooLong),
    slug: z.string().trim().max(200, MSG.tooLong),
    apiKey: z.string().max(500, MSG.tooLong),
    expiryMinutes: z.coerce.number<string | number>().int().min(0).max(2880),
    endKeyword: z.string().trim().max(100, MSG.tooLong),
    unknownMessage: z.string().max(1000, MSG.tooLong),
    delayMs: z.coerce.number<string | number>().int().min(0).max(10_000),
  }),
});
type Values = z.input<typeof connectionForm>;

/** A switch bound to a yes/no field of the form. */
function SwitchField({ control, name, label }: { control: Control<Values, unknown, Output>; name: Path<Values>; label: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          control={<Switch checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} />}
          label={label}
        />
      )}
    />
  );
}
type Output = z.output<typeof connectionForm>;

const toValues = (w?: Whatsapp | null): Values => ({
  name: w?.name ?? "",
  type: w?.type ?? "baileys",
  isDefault: w?.isDefault ?? false,
  greetingMessage: w?.greetingMessage ?? "",
  farewellMessage: w?.farewellMessage ?? "",
  queueIds: w?.queues.map((q) => q.id) ?? [],
  acceptCalls: w?.acceptCalls ?? true,
  callRefuseMessage: w?.callRefuseMessage ?? "",
  selfService: w?.selfService ?? "off",
  typebot: {
    enabled: w?.typebot.enabled ?? false,
    baseUrl: w?.typebot.baseUrl ?? "",
    slug: w?.typebot.slug ?? "",
    apiKey: "",
    expiryMinutes: w?.typebot.expiryMinutes ?? 30,
    endKeyword: w?.typebot.endKeyword ?? "",
    unknownMessage: w?.typebot.unknownMessage ?? "",
    delayMs: w?.typebot.delayMs ?? 1000,
  },
});

/** Bot settings are enabled without the URL or the slug they need (the submit stays disabled). */
export function typebotIncomplete(b: { enabled: boolean; baseUrl: string; slug: string }): boolean {
  return b.enabled && (!b.baseUrl.trim() || !b.slug.trim());
}

/** Whether the bot settings need a PUT: something differs from what is stored, or a new key was typed. */
function typebotChanged(b: Output["typebot"], stored?: Whatsapp["typebot"]): boolean {
  if (b.apiKey) return true;
  const before = stored ?? { enabled: false, baseUrl: "", slug: "", expiryMinutes: 30, endKeyword: "", unknownMessage: "", delayMs: 1000 };
  return (
    b.enabled !== before.enabled ||
    b.baseUrl !== before.baseUrl ||
    b.slug !== before.slug ||
    b.expiryMinutes !== before.expiryMinutes ||
    b.endKeyword !== before.endKeyword ||
    b.unknownMessage !== before.unknownMessage ||
    b.delayMs !== before.delayMs
  );
}

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  const area = document.createElement("textarea");
  area.value = text;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy failed");
}

function Section({ title }: { title: string }) {
  return (
    <Box sx={{ pt: 1 }}>
      <Typography variant="overline" color="text.secondary" component="h3" sx={{ lineHeight: 2 }}>
        {title}
      </Typography>
      <Divider />
    </Box>
  );
}

export function ConnectionDialog({
  open,
  connection,
  simulatorAvailable,
  onClose,
}: {
  open: boolean;
  connection: Whatsapp | null;
  simulatorAvailable: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveConnection();
  const saveBot = useSaveTypebot();
  const regenerate = useRegenerateToken();
  /** The token 'Gerar novo token' answered: shown in this dialog only, never fetched again. */
  const [newToken, setNewToken] = useState("");
  /** A connection created by this dialog whose bot settings failed: the next submit edits it. */
  const [created, setCreated] = useState<Whatsapp | null>(null);
  const current = connection ?? created;
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, Output>({ resolver: localizedResolver(connectionForm), defaultValues: toValues(connection) });

  useEffect(() => {
    if (open) {
      reset(toValues(connection));
      setCreated(null);
      setNewToken("");
    }
  }, [open, connection, reset]);

  const acceptCalls = useWatch({ control, name: "acceptCalls" });
  const bot = useWatch({ control, name: "typebot" });
  const incomplete = typebotIncomplete(bot);

  const onSubmit = handleSubmit(async ({ typebot, ...values }) => {
    let saved: Whatsapp;
    try {
      saved = await save.mutateAsync({ id: current?.id, body: values });
    } catch (err) {
      showSaveError(err, setError);
      if (err instanceof ApiError && err.code === "ERR_WAPP_GREETING_REQUIRED")
        setError("greetingMessage", { type: "server", message: t("errors.ERR_WAPP_GREETING_REQUIRED") });
      if (err instanceof ApiError && err.code === "ERR_WAPP_NAME_ALREADY_EXISTS")
        setError("name", { type: "server", message: t("errors.ERR_WAPP_NAME_ALREADY_EXISTS") });
      return;
    }
    if (typebotChanged(typebot, current?.typebot)) {
      const input: TypebotInput = {
        enabled: typebot.enabled,
        baseUrl: typebot.baseUrl,
        slug: typebot.slug,
        apiKey: typebot.apiKey || undefined,
        expiryMinutes: typebot.expiryMinutes,
        endKeyword: typebot.endKeyword,
        unknownMessage: typebot.unknownMessage,
        delayMs: typebot.delayMs,
      };
      try {
        await saveBot.mutateAsync({ id: saved.id, typebot: input });
      } catch (err) {
        if (!connection) setCreated(saved);
        if (err instanceof ApiError && err.fields) {
          for (const [field, messages] of Object.entries(err.fields))
            if (field === "apiKey")
              // the saved key goes only to the saved address: a new one needs it typed
              setError("typebot.apiKey", { type: "server", message: t("connections.form.apiKeyRetype") });
            else if (field === "baseUrl" || field === "slug")
              setError(`typebot.${field}`, { type: "server", message: validationText(messages[0]) });
        }
        toastError(err);
        return;
      }
    }
    toastSuccess(t("connections.saved"));
    onClose();
  });

  const generateToken = async () => {
    if (!current) return;
    try {
      setNewToken((await regenerate.mutateAsync(current.id)).token);
    } catch (err) {
      toastError(err);
    }
  };

  const copyToken = async () => {
    try {
      await copyText(newToken);
      toastSuccess(t("connections.form.copied"));
    } catch {
      toastError(t("connections.form.copyFailed"));
    }
  };

  const showSimulator = simulatorAvailable || current?.type === "simulator";

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      onSubmit={onSubmit}
      // enabled bot settings without their URL and slug cannot be saved
      submitting={isSubmitting || incomplete}
      title={current ? t("connections.form.editTitle") : t("connections.form.addTitle")}
    >
      <TextField
        label={t("connections.form.name")}
        autoFocus
        {...register("name")}
        error={Boolean(errors.name)}
        helperText={errors.name?.message}
      />
      {(showSimulator || current) && (
        <Controller
          control={control}
          name="type"
          render={({ field }) => (
            <TextField
              select
              label={t("connections.form.type")}
              {...field}
              value={field.value ?? "baileys"}
              helperText={current ? t("connections.form.typeChangeHelp") : undefined}
            >
              <MenuItem value="baileys">{t("connections.form.types.baileys")}</MenuItem>
              {showSimulator && <MenuItem value="simulator">{t("connections.form.types.simulator")}</MenuItem>}
            </TextField>
          )}
        />
      )}
      <Box>
        <SwitchField control={control} name="isDefault" label={t("connections.form.isDefault")} />
        <FormHelperText sx={{ mt: -0.5 }}>
          {current?.isDefault ? t("connections.form.isDefaultLockedHelp") : t("connections.form.isDefaultHelp")}
        </FormHelperText>
      </Box>

      <Section title={t("connections.form.messages")} />
      <Controller
        control={control}
        name="queueIds"
        render={({ field }) => (
          <QueueMultiSelect label={t("connections.form.queues")} value={field.value} onChange={field.onChange} onBlur={field.onBlur} />
        )}
      />
      <Controller
        control={control}
        name="selfService"
        render={({ field }) => (
          <TextField
            select
            label={t("connections.form.selfService")}
            {...field}
            value={field.value ?? "off"}
            helperText={t(`connections.form.selfServiceHelp.${field.value ?? "off"}`)}
            slotProps={{ select: { SelectDisplayProps: { "data-testid": "self-service" } as object } }}
          >
            <MenuItem value="off">{t("connections.form.selfServiceModes.off")}</MenuItem>
            <MenuItem value="before">{t("connections.form.selfServiceModes.before")}</MenuItem>
            <MenuItem value="after">{t("connections.form.selfServiceModes.after")}</MenuItem>
          </TextField>
        )}
      />
      <TextField
        label={t("connections.form.greeting")}
        multiline
        minRows={3}
        maxRows={8}
        {...register("greetingMessage")}
        error={Boolean(errors.greetingMessage)}
        helperText={errors.greetingMessage?.message ?? t("connections.form.greetingHelp")}
      />
      <TextField
        label={t("connections.form.farewell")}
        multiline
        minRows={2}
        maxRows={8}
        {...register("farewellMessage")}
        error={Boolean(errors.farewellMessage)}
        helperText={errors.farewellMessage?.message}
      />

      <Section title={t("connections.form.calls")} />
      <Box>
        <SwitchField control={control} name="acceptCalls" label={t("connections.form.acceptCalls")} />
      </Box>
      {!acceptCalls && (
        <TextField
          label={t("connections.form.callRefuseMessage")}
          multiline
          minRows={2}
          maxRows={6}
          {...register("callRefuseMessage")}
          error={Boolean(errors.callRefuseMessage)}
          helperText={errors.callRefuseMessage?.message ?? t("connections.form.callRefuseHelp")}
        />
      )}

      <Section title={t("connections.form.api")} />
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="body2" sx={{ flex: 1, minWidth: 200 }} data-testid="token-state">
          {!current
            ? t("connections.form.tokenAfterSave")
            : current.hasToken || newToken
              ? t("connections.form.tokenSet")
              : t("connections.form.tokenUnset")}
        </Typography>
        {current && (
          <Button
            variant="outlined"
            size="small"
            startIcon={<AutorenewIcon fontSize="small" />}
            disabled={regenerate.isPending}
            onClick={() => void generateToken()}
          >
            {t("connections.form.generate")}
          </Button>
        )}
      </Box>
      {newToken && (
        <TextField
          label={t("connections.form.newToken")}
          value={newToken}
          helperText={t("connections.form.newTokenHelp")}
          slotProps={{
            htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: "monospace" } },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={t("connections.form.copy")}>
                    <IconButton aria-label={t("connections.form.copy")} edge="end" onClick={() => void copyToken()}>
                      <ContentCopyIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
        />
      )}

      <Section title={t("connections.form.typebot")} />
      <Box>
        <SwitchField control={control} name="typebot.enabled" label={t("connections.form.typebotEnabled")} />
      </Box>
      <TextField
        label={t("connections.form.baseUrl")}
        placeholder="https://typebot.example.com"
        type="url"
        {...register("typebot.baseUrl")}
        required={bot.enabled}
        error={Boolean(errors.typebot?.baseUrl)}
        helperText={errors.typebot?.baseUrl?.message ?? t("connections.form.baseUrlHelp")}
      />
      <TextField
        label={t("connections.form.slug")}
        {...register("typebot.slug")}
        required={bot.enabled}
        error={Boolean(errors.typebot?.slug)}
        helperText={errors.typebot?.slug?.message}
      />
      <TextField
        label={t("connections.form.apiKey")}
        type="password"
        autoComplete="new-password"
        {...register("typebot.apiKey")}
        error={Boolean(errors.typebot?.apiKey)}
        helperText={
          errors.typebot?.apiKey?.message ??
          (current?.typebot.hasApiKey ? t("connections.form.apiKeySet") : t("connections.form.apiKeyUnset"))
        }
        slotProps={{ formHelperText: { "data-testid": "typebot-key-hint" } as object }}
      />
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
        <TextField
          label={t("connections.form.expiryMinutes")}
          type="number"
          slotProps={{ htmlInput: { min: 0, max: 2880 } }}
          {...register("typebot.expiryMinutes")}
          error={Boolean(errors.typebot?.expiryMinutes)}
          helperText={errors.typebot?.expiryMinutes?.message ?? t("connections.form.expiryHelp")}
        />
        <TextField
          label={t("connections.form.delayMs")}
          type="number"
          slotProps={{ htmlInput: { min: 0, max: 10000, step: 100 } }}
          {...register("typebot.delayMs")}
          error={Boolean(errors.typebot?.delayMs)}
          helperText={errors.typebot?.delayMs?.message ?? t("connections.form.delayHelp")}
        />
      </Box>
      <TextField
        label={t("connections.form.endKeyword")}
        {...register("typebot.endKeyword")}
        error={Boolean(errors.typebot?.endKeyword)}
        helperText={errors.typebot?.endKeyword?.message ?? t("connections.form.endKeywordHelp")}
      />
      <TextField
        label={t("connections.form.unknownMessage")}
        multiline
        minRows={2}
        {...register("typebot.unknownMessage")}
        error={Boolean(errors.typebot?.unknownMessage)}
        helperText={errors.typebot?.unknownMessage?.message ?? t("connections.form.unknownMessageHelp")}
      />
      {incomplete && (
        <Alert severity="info" data-testid="typebot-incomplete">
          {t("connections.form.typebotIncomplete")}
        </Alert>
      )}
    </FormDialog>
  );
}
