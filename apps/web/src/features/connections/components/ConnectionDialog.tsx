import type { Whatsapp } from "@balcao/contract";
import { useEffect, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/http";
import { FormDialog } from "../../../components/FormDialog";
import { showSaveError } from "../../../lib/forms";
import { toastError, toastSuccess } from "../../../lib/toast";
import { localizedResolver, validationText } from "../../../lib/validation";
import { type TypebotInput, useSaveConnection, useSaveTypebot } from "../api/connections";
import { cloudBody, connectionForm, type Output, toValues, typebotChanged, typebotIncomplete, type Values } from "./connection-form";
import { CloudSection } from "./sections/CloudSection";
import { ApiTokenSection } from "./sections/ApiTokenSection";
import { CallsSection } from "./sections/CallsSection";
import { GeneralSection } from "./sections/GeneralSection";
import { HealthSection } from "./sections/HealthSection";
import { MessagesSection } from "./sections/MessagesSection";
import { TypebotSection } from "./sections/TypebotSection";

/** Add or edit a connection, in sections as the settings screen: general, messages, calls, API, Typebot. */
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
  /** A connection created by this dialog whose bot settings failed: the next submit edits it. */
  const [created, setCreated] = useState<Whatsapp | null>(null);
  const current = connection ?? created;
  const form = useForm<Values, unknown, Output>({ resolver: localizedResolver(connectionForm), defaultValues: toValues(connection) });
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = form;

  useEffect(() => {
    if (open) {
      reset(toValues(connection));
      setCreated(null);
    }
  }, [open, connection, reset]);

  const bot = useWatch({ control, name: "typebot" });
  const type = useWatch({ control, name: "type" });
  const incomplete = typebotIncomplete(bot);

  const onSubmit = handleSubmit(async ({ typebot, cloud, ...values }) => {
    let saved: Whatsapp;
    try {
      saved = await save.mutateAsync({
        id: current?.id,
        body: { ...values, ...(values.type === "cloud" && cloud && { cloud: cloudBody(cloud) }) },
      });
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
      <GeneralSection form={form} current={current} showSimulator={showSimulator} />
      {type === "cloud" && <CloudSection form={form} current={current} />}
      <MessagesSection form={form} />
      <CallsSection form={form} />
      <HealthSection form={form} current={current} />
      <ApiTokenSection current={current} />
      <TypebotSection form={form} current={current} />
    </FormDialog>
  );
}
