import "../i18n";
import type { AudioEntry, ChatEntry } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import CheckIcon from "@mui/icons-material/Check";
import CloseIcon from "@mui/icons-material/Close";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditOutlinedIcon from "@mui/icons-material/EditOutlined";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { Theme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { enqueueSnackbar } from "notistack";
import { type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { PageHeader } from "../../../components/PageHeader";
import { toastSuccess } from "../../../lib/toast";
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

interface Column<D> {
  key: keyof D & string;
  label: string;
  multiline?: boolean;
  /** the file address column: a preview and an upload button while editing */
  file?: boolean;
  width?: number | string;
}

/** A table whose rows turn into fields in place ('Editar'), with a new row on top and a confirmed delete. */
function EditableTable<E extends { id: number }, D extends Record<string, string>>({
  kind,
  title,
  rows,
  loading,
  columns,
  draftOf,
  empty,
  valid,
}: {
  kind: Kind;
  title: string;
  rows: E[] | undefined;
  loading: boolean;
  columns: Column<D>[];
  draftOf: (e?: E) => D;
  empty: string;
  valid: (d: D) => boolean;
}) {
  const { t } = useTranslation();
  const save = useSaveEntry(kind);
  const remove = useDeleteEntry(kind);
  const [editing, setEditing] = useState<{ id?: number; draft: D } | null>(null);
  const [deleting, setDeleting] = useState<E | null>(null);
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));

  const commit = async () => {
    if (!editing) return;
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the draft is the body of its kind
      await save.mutateAsync({ id: editing.id, body: editing.draft as any });
      setEditing(null);
      toastSuccess(t("chatbot.saved"));
    } catch (err) {
      // §8: audio and chat save failures are only logged
      console.error(err);
    }
  };

  const field = (c: Column<D>) => {
    if (!editing) return null;
    const set = (v: string) => setEditing({ ...editing, draft: { ...editing.draft, [c.key]: v } });
    if (c.file) {
      return (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
          <Preview kind={kind} url={editing.draft[c.key]} />
          <UploadButton kind={kind} label={t("chatbot.upload")} onUploaded={set} />
        </Box>
      );
    }
    return (
      <TextField
        size="small"
        fullWidth
        multiline={c.multiline}
        maxRows={6}
        value={editing.draft[c.key]}
        onChange={(e) => set(e.target.value)}
        slotProps={{ htmlInput: { "aria-label": c.label } }}
      />
    );
  };

  const actions = (children: ReactNode) => (
    <TableCell align="right" sx={{ whiteSpace: "nowrap", width: 96 }}>
      {children}
    </TableCell>
  );
  const editButtons = (
    <>
      <Tooltip title={t("common.save")}>
        <span>
          <IconButton
            color="primary"
            aria-label={t("common.save")}
            onClick={() => void commit()}
            disabled={save.isPending || !editing || !valid(editing.draft)}
          >
            <CheckIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t("common.cancel")}>
        <IconButton aria-label={t("common.cancel")} onClick={() => setEditing(null)}>
          <CloseIcon />
        </IconButton>
      </Tooltip>
    </>
  );
  const editActions = actions(editButtons);
  const rowButtons = (row: E, draft: D) => (
    <>
      <Tooltip title={t("common.edit")}>
        <IconButton aria-label={t("common.edit")} onClick={() => setEditing({ id: row.id, draft })}>
          <EditOutlinedIcon />
        </IconButton>
      </Tooltip>
      <Tooltip title={t("common.delete")}>
        <IconButton aria-label={t("common.delete")} color="error" onClick={() => setDeleting(row)}>
          <DeleteOutlineIcon />
        </IconButton>
      </Tooltip>
    </>
  );

  return (
    <Paper variant="outlined" sx={{ overflow: "hidden" }} data-testid={`${kind}-table`}>
      <Box sx={{ display: "flex", alignItems: "center", px: 2, py: 1.5, gap: 1 }}>
        <Typography component="h2" variant="h6" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <Button
          variant="contained"
          size="small"
          startIcon={<AddIcon />}
          onClick={() => setEditing({ draft: draftOf() })}
          disabled={editing?.id === undefined && !!editing}
        >
          {t("chatbot.add")}
        </Button>
      </Box>
      {narrow ? (
        <Box sx={{ borderTop: 1, borderColor: "divider" }}>
          {editing && editing.id === undefined && (
            <Box data-testid={`${kind}-new-row`} sx={{ p: 2, display: "grid", gap: 1.5, borderBottom: 1, borderColor: "divider" }}>
              {columns.map((c) => (
                <Box key={c.key}>{field(c)}</Box>
              ))}
              <Box sx={{ textAlign: "right" }}>{editButtons}</Box>
            </Box>
          )}
          {loading && (
            <Box sx={{ p: 2 }}>
              <Skeleton />
              <Skeleton />
            </Box>
          )}
          {!loading && rows?.length === 0 && !editing && (
            <Typography color="text.secondary" sx={{ p: 3, textAlign: "center" }} data-testid={`${kind}-empty`}>
              {empty}
            </Typography>
          )}
          {rows?.map((row) => {
            const draft = draftOf(row);
            const isEditing = editing?.id === row.id;
            return (
              <Box
                key={row.id}
                data-testid={`${kind}-row`}
                data-entry-id={row.id}
                sx={{ p: 2, display: "grid", gap: 1, borderBottom: 1, borderColor: "divider", "&:last-of-type": { borderBottom: 0 } }}
              >
                {columns.map((c) => (
                  <Box key={c.key} sx={{ minWidth: 0 }}>
                    <Typography variant="caption" color="text.secondary" sx={{ display: "block", fontWeight: 600 }}>
                      {c.label}
                    </Typography>
                    {isEditing ? (
                      field(c)
                    ) : c.file ? (
                      <Preview kind={kind} url={draft[c.key]} />
                    ) : (
                      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                        {draft[c.key]}
                      </Typography>
                    )}
                  </Box>
                ))}
                <Box sx={{ textAlign: "right" }}>{isEditing ? editButtons : rowButtons(row, draft)}</Box>
              </Box>
            );
          })}
        </Box>
      ) : (
        <TableContainer sx={{ overflowX: "auto" }}>
          <Table size="small" sx={{ minWidth: 560 }}>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c.key} sx={{ width: c.width, fontWeight: 600 }}>
                    {c.label}
                  </TableCell>
                ))}
                <TableCell align="right" sx={{ width: 96 }} />
              </TableRow>
            </TableHead>
            <TableBody>
              {editing && editing.id === undefined && (
                <TableRow data-testid={`${kind}-new-row`}>
                  {columns.map((c) => (
                    <TableCell key={c.key}>{field(c)}</TableCell>
                  ))}
                  {editActions}
                </TableRow>
              )}
              {loading &&
                [0, 1, 2].map((i) => (
                  <TableRow key={i}>
                    {columns.map((c) => (
                      <TableCell key={c.key}>
                        <Skeleton />
                      </TableCell>
                    ))}
                    <TableCell />
                  </TableRow>
                ))}
              {!loading && rows?.length === 0 && !editing && (
                <TableRow>
                  <TableCell colSpan={columns.length + 1}>
                    <Typography color="text.secondary" sx={{ py: 3, textAlign: "center" }} data-testid={`${kind}-empty`}>
                      {empty}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
              {rows?.map((row) => {
                const draft = draftOf(row);
                const isEditing = editing?.id === row.id;
                return (
                  <TableRow key={row.id} hover data-testid={`${kind}-row`} data-entry-id={row.id}>
                    {columns.map((c) => (
                      <TableCell key={c.key} sx={{ verticalAlign: "middle", wordBreak: "break-word" }}>
                        {isEditing ? (
                          field(c)
                        ) : c.file ? (
                          <Preview kind={kind} url={draft[c.key]} />
                        ) : (
                          <Typography
                            variant="body2"
                            sx={{
                              whiteSpace: "pre-wrap",
                              display: "-webkit-box",
                              WebkitLineClamp: 3,
                              WebkitBoxOrient: "vertical",
                              overflow: "hidden",
                            }}
                          >
                            {draft[c.key]}
                          </Typography>
                        )}
                      </TableCell>
                    ))}
                    {isEditing ? editActions : actions(rowButtons(row, draft))}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("chatbot.confirmDelete")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              toastSuccess(t("chatbot.deleted"));
            },
          });
        }}
      />
    </Paper>
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
        <EditableTable<ChatEntry, { shortcut: string; message: string; url: string }>
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
        <EditableTable<AudioEntry, { titulo: string; url: string }>
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
