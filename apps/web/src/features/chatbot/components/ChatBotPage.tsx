import "../i18n";
import type { AudioEntry, ChatEntry } from "@balcao/contract";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { enqueueSnackbar } from "notistack";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { EditableGrid } from "../../../components/EditableGrid";
import { PageHeader } from "../../../components/PageHeader";
import { uploadWithProgress, useAudioEntries, useBotContentLive, useChatEntries, useDeleteEntry, useSaveEntry } from "../api/bot-content";

type Kind = "chatbot" | "audiobot";

/** A file picker button that uploads at once and shows its progress; answers the stored file's address. */
function UploadButton({ kind, onUploaded, label }: { kind: Kind; onUploaded: (url: string) => void; label: string }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setProgress(0);
    try {
      const res = await uploadWithProgress(kind, file, setProgress);
      onUploaded(res.url);
    } catch (err) {
      // §8: 'Upload falhou'
      console.error(err);
      enqueueSnackbar(t("chatbot.uploadFailed"), { variant: "error" });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  };
  return (
    <Box sx={{ minWidth: 120 }}>
      <input
        ref={input}
        type="file"
        hidden
        accept={kind === "chatbot" ? "image/*" : "audio/*"}
        data-testid={`${kind}-file`}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      <Button size="small" startIcon={<UploadFileIcon />} onClick={() => input.current?.click()} disabled={progress !== null}>
        {label}
      </Button>
      {progress !== null && (
        <LinearProgress variant="determinate" value={progress} aria-label={t("chatbot.uploading")} data-testid="upload-progress" />
      )}
    </Box>
  );
}

function Preview({ kind, url }: { kind: Kind; url: string }) {
  const { t } = useTranslation();
  if (!url) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t("chatbot.noFile")}
      </Typography>
    );
  }
  if (kind === "chatbot") {
    return (
      <Box
        component="img"
        src={url}
        alt={t("chatbot.preview")}
        sx={{ width: 56, height: 56, objectFit: "cover", borderRadius: 1, border: 1, borderColor: "divider", display: "block" }}
      />
    );
  }
  // biome-ignore lint/a11y/useMediaCaption: a customer-service voice note has no captions
  return <audio src={url} controls preload="metadata" style={{ width: 220, maxWidth: "100%", display: "block" }} />;
}

/** A chat or audio entries grid: the shared editable grid with this kind's calls, its file preview and upload. */
function EntriesGrid<E extends { id: number }, D extends Record<string, string>>(
  p: { kind: Kind } & Omit<Parameters<typeof EditableGrid<E, D>>[0], "testId" | "save" | "remove" | "file" | "labels">,
) {
  const { t } = useTranslation();
  const { kind, ...grid } = p;
  const save = useSaveEntry(kind);
  const remove = useDeleteEntry(kind);
  return (
    <EditableGrid<E, D>
      {...grid}
      testId={kind}
      save={{
        isPending: save.isPending,
        // the draft is the body of its kind
        mutateAsync: ({ id, body }) => save.mutateAsync({ id, body: body as never }),
      }}
      remove={remove}
      file={{
        view: (url) => <Preview kind={kind} url={url} />,
        edit: (url, set) => (
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
            <Preview kind={kind} url={url} />
            <UploadButton kind={kind} label={t("chatbot.upload")} onUploaded={set} />
          </Box>
        ),
      }}
      labels={{
        add: t("chatbot.add"),
        saved: t("chatbot.saved"),
        confirmDelete: t("chatbot.confirmDelete"),
        deleted: t("chatbot.deleted"),
      }}
    />
  );
}

export default function ChatBotPage() {
  const { t } = useTranslation();
  const chat = useChatEntries();
  const audio = useAudioEntries();
  useBotContentLive();
  return (
    <Box sx={{ pb: 4 }}>
      <PageHeader title={t("chatbot.title")} subtitle={t("chatbot.subtitle")} />
      <Box sx={{ px: { xs: 1, sm: 3 }, display: "grid", gap: 3 }}>
        <EntriesGrid<ChatEntry, { shortcut: string; message: string; url: string }>
          kind="chatbot"
          title={t("chatbot.chatTitle")}
          rows={chat.data}
          loading={chat.isPending}
          empty={t("chatbot.chatEmpty")}
          columns={[
            { key: "shortcut", label: t("chatbot.shortcut"), width: "20%" },
            { key: "message", label: t("chatbot.message"), multiline: true },
            { key: "url", label: t("chatbot.image"), file: true, width: 200 },
          ]}
          draftOf={(e) => ({ shortcut: e?.shortcut ?? "", message: e?.message ?? "", url: e?.url ?? "" })}
          valid={(d) => d.shortcut.trim().length > 0 && (d.message.trim().length > 0 || d.url.length > 0)}
        />
        <EntriesGrid<AudioEntry, { titulo: string; url: string }>
          kind="audiobot"
          title={t("chatbot.audioTitle")}
          rows={audio.data}
          loading={audio.isPending}
          empty={t("chatbot.audioEmpty")}
          columns={[
            { key: "titulo", label: t("chatbot.titulo"), width: "35%" },
            { key: "url", label: t("chatbot.audio"), file: true },
          ]}
          draftOf={(e) => ({ titulo: e?.titulo ?? "", url: e?.url ?? "" })}
          valid={(d) => d.titulo.trim().length > 0 && d.url.length > 0}
        />
      </Box>
    </Box>
  );
}
