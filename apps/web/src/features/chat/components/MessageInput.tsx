import "../i18n";
import {
  AUDIO_MIN_BYTES,
  MESSAGE_INPUT_MAX_ROWS,
  type Message,
  TYPING_STOP_DELAY_MS,
  type Ticket,
  UPLOAD_MAX_BYTES,
} from "@balcao/contract";
import AddCircleOutlineIcon from "@mui/icons-material/AddCircleOutline";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import CancelIcon from "@mui/icons-material/Cancel";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import CloseIcon from "@mui/icons-material/Close";
import DrawIcon from "@mui/icons-material/Draw";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFile";
import LibraryMusicIcon from "@mui/icons-material/LibraryMusic";
import MicIcon from "@mui/icons-material/Mic";
import MoodIcon from "@mui/icons-material/Mood";
import QuickreplyIcon from "@mui/icons-material/Quickreply";
import SendIcon from "@mui/icons-material/Send";
import LockIcon from "@mui/icons-material/Lock";
import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import InputBase from "@mui/material/InputBase";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Popover from "@mui/material/Popover";
import Switch from "@mui/material/Switch";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { type ReactElement, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError, toastInfo } from "../../../lib/toast";
import { useWidth } from "../../../lib/use-width";
import { useAuth } from "../../auth";
import { audioEntryFile, sendTyping, useAudioEntriesList, useQuickAnswerLookup, useSendMessage } from "../api/messages";
import { noteBg, noteBorder } from "../note-colors";
import { type Recording, startRecording } from "../recorder";
import { MessageLimitCounter, messageLimit } from "./MessageLimit";

export const SIGN_KEY = "signOption";
/** typed first, the rest of the text goes as an internal note */
export const NOTE_PREFIX = "/nota ";

/** An internal note (the toggle, or the `/nota` prefix): its text, or null for a message to the customer. */
export function noteOf(text: string, noteMode: boolean): string | null {
  if (text.toLowerCase().startsWith(NOTE_PREFIX)) return text.slice(NOTE_PREFIX.length).trim();
  return noteMode ? text.trim() : null;
}
const EMOJIS =
  "😀 😃 😄 😁 😅 😂 🙂 😉 😊 😍 😘 😎 🤔 😐 😴 😢 😭 😡 👍 👎 👏 🙏 👋 🤝 💪 ✅ ❌ ⚠️ ❤️ 🔥 🎉 ⭐ 📞 📶 💻 📱 🛠️ 💰 🧾 📅 ⏰ 🚀".split(" ");

/** The signed body: the agent's name in bold on its own line, then the text. */
export function signed(body: string, name: string, sign: boolean) {
  return sign ? `*${name}*:\n${body}` : body;
}

function readSign() {
  try {
    return localStorage.getItem(SIGN_KEY) !== "false";
  } catch {
    return true;
  }
}

/**
 * Below this width (px) of the composer the actions beside the text box (emoji, ready audios, attach,
 * quick answers, internal note, AI, Assinar) go into one menu button, so the text box gets the room:
 * a phone, or the chat pane beside the ticket list on a small laptop.
 */
export const COMPOSER_COMPACT_BELOW = 560;

/** Whether a composer this wide (0: not laid out yet) groups its actions into the menu. */
export function composerCompact(width: number) {
  return width > 0 && width < COMPOSER_COMPACT_BELOW;
}

/** A trigger drawn as an item of the composer's menu. */
export type MenuTrigger = (p: { icon: ReactElement; label: string; onClick: () => void; disabled?: boolean; testId?: string }) => ReactNode;

/**
 * Where an assist (AI suggestions) puts itself when the composer is narrow: `render` draws its trigger
 * as an item of the composer's menu, `panelContainer` is the composer's box, where what it shows
 * above the input goes (the menu closes, the panel stays).
 */
export interface AssistSlot {
  render: MenuTrigger;
  panelContainer: HTMLElement | null;
}

interface Props {
  /**
   * Composed in by the screen (e.g. AI suggestions): given the function that puts a text in the input;
   * and, when the composer is narrow, the slot of its menu (else it draws its own icon beside the input).
   */
  assist?: (fill: (text: string) => void, slot?: AssistSlot) => ReactNode;
  ticket: Ticket;
  replyTo: Message | null;
  onCancelReply: () => void;
}

export function MessageInput({ ticket, replyTo, onCancelReply, assist }: Props) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const send = useSendMessage(ticket.id);
  const enabled = ticket.status === "open";
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [sign, setSign] = useState(readSign);
  const [noteMode, setNoteMode] = useState(false);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  const [boxRef, boxWidth, box] = useWidth<HTMLDivElement>();
  const compact = composerCompact(boxWidth);
  const [audioAnchor, setAudioAnchor] = useState<HTMLElement | null>(null);
  const audios = useAudioEntriesList(Boolean(audioAnchor));
  const [recording, setRecording] = useState<Recording | null>(null);
  const [busyAudio, setBusyAudio] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const typing = useRef<{ on: boolean; timer?: ReturnType<typeof setTimeout> }>({ on: false });
  const asNote = noteMode || text.toLowerCase().startsWith(NOTE_PREFIX);
  // over the contract's limit the server refuses it: the counter says so and the send waits
  const overLimit = messageLimit(text.trim().length).over;
  const lookupTerm = text.startsWith("/") && !text.includes("\n") && !asNote ? text.slice(1) : null;
  const lookup = useQuickAnswerLookup(lookupTerm);
  const answers = lookupTerm !== null ? (lookup.data?.quickAnswers ?? []) : [];
  const previews = useMemo(() => files.map((f) => ({ f, url: f.type.startsWith("image/") ? URL.createObjectURL(f) : null })), [files]);

  useEffect(
    () => () => {
      for (const p of previews) if (p.url) URL.revokeObjectURL(p.url);
    },
    [previews],
  );
  useEffect(
    () => () => {
      const ty = typing.current;
      if (ty.timer) clearTimeout(ty.timer);
      if (ty.on) sendTyping(ticket.id, false);
    },
    [ticket.id],
  );
  useEffect(() => () => recording?.cancel(), [recording]);
  useEffect(() => {
    if (replyTo) inputRef.current?.focus();
  }, [replyTo]);

  const touchTyping = () => {
    // the customer never sees "typing…" for a note
    if (asNote) return;
    const ty = typing.current;
    if (!ty.on) {
      ty.on = true;
      sendTyping(ticket.id, true);
    }
    if (ty.timer) clearTimeout(ty.timer);
    ty.timer = setTimeout(() => {
      ty.on = false;
      sendTyping(ticket.id, false);
    }, TYPING_STOP_DELAY_MS);
  };

  /** Files over the upload limit are refused here, before a long upload ends in 'too large'. */
  const addFiles = (list: File[]) => {
    const tooBig = list.filter((f) => f.size > UPLOAD_MAX_BYTES);
    for (const f of tooBig) toastError(t("chat.fileTooLarge", { name: f.name, max: Math.round(UPLOAD_MAX_BYTES / 1024 / 1024) }));
    const ok = list.filter((f) => f.size <= UPLOAD_MAX_BYTES);
    if (ok.length) setFiles((old) => [...old, ...ok]);
  };

  const toggleSign = (v: boolean) => {
    setSign(v);
    try {
      localStorage.setItem(SIGN_KEY, String(v));
    } catch {
      /* private mode */
    }
  };

  const submit = async () => {
    if (!enabled || send.isPending || overLimit) return;
    const body = text.trim();
    const note = noteOf(text, noteMode);
    if (note !== null) {
      if (!note) return;
      await send
        .mutateAsync({ body: note, internal: true })
        .then(() => {
          setText("");
          // the next message goes to the customer again: note mode is for one note at a time
          setNoteMode(false);
        })
        .catch(() => undefined);
      inputRef.current?.focus();
      return;
    }
    if (files.length) {
      await send
        .mutateAsync({ body, quotedId: replyTo?.id, files })
        .then(() => {
          setFiles([]);
          setText("");
          onCancelReply();
        })
        .catch(() => undefined);
      return;
    }
    if (!body) return;
    await send
      .mutateAsync({ body: signed(body, user?.name ?? "", sign), quotedId: replyTo?.id })
      .then(() => {
        setText("");
        onCancelReply();
      })
      .catch(() => undefined);
    inputRef.current?.focus();
  };

  const pickAnswer = (message: string) => {
    setText(message);
    inputRef.current?.focus();
  };

  const startRec = async () => {
    try {
      setRecording(await startRecording());
    } catch {
      toastError(t("chat.micDenied"));
    }
  };
  const stopRec = async () => {
    if (!recording) return;
    setBusyAudio(true);
    try {
      const blob = await recording.stop();
      setRecording(null);
      if (blob.size < AUDIO_MIN_BYTES) {
        toastInfo(t("chat.tooShort"));
        return;
      }
      const file = new File([blob], `audio-${Date.now()}.mp3`, { type: "audio/mpeg" });
      await send.mutateAsync({ body: "", files: [file], quotedId: replyTo?.id }).catch(() => undefined);
      onCancelReply();
    } finally {
      setBusyAudio(false);
    }
  };
  const cancelRec = () => {
    recording?.cancel();
    setRecording(null);
  };

  const toggleNote = () => {
    setNoteMode(!noteMode);
    inputRef.current?.focus();
  };

  /** An item of the composer's menu (narrow screens): closes the menu, then acts. */
  const menuItem: MenuTrigger = ({ icon, label, onClick, disabled, testId }) => (
    <MenuItem
      key={testId ?? label}
      disabled={disabled}
      data-testid={testId}
      onClick={() => {
        setMenuAnchor(null);
        onClick();
      }}
    >
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );

  const insertEmoji = (e: string) => {
    const el = inputRef.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + e + text.slice(end));
    setEmojiAnchor(null);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + e.length, start + e.length);
    });
  };

  if (!enabled) {
    return (
      <Box sx={{ p: 2, borderTop: 1, borderColor: "divider", textAlign: "center" }} data-testid="input-disabled">
        <Typography variant="body2" color="text.secondary">
          {t("chat.inputDisabled", { button: t(ticket.status === "closed" ? "chat.reopen" : "chat.accept") })}
        </Typography>
      </Box>
    );
  }

  return (
    <Box ref={boxRef} sx={{ borderTop: 1, borderColor: "divider", bgcolor: "background.paper", position: "relative" }}>
      {answers.length > 0 && (
        <Paper elevation={4} sx={{ position: "absolute", bottom: "100%", left: 8, right: 8, maxHeight: 240, overflow: "auto", zIndex: 2 }}>
          <List dense data-testid="quick-answers">
            {answers.map((qa) => (
              <ListItemButton key={qa.id} onClick={() => pickAnswer(qa.message)}>
                <ListItemText primary={`/${qa.shortcut}`} secondary={qa.message} slotProps={{ secondary: { noWrap: true } }} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {replyTo && (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1.5, pt: 1 }} data-testid="reply-preview">
          <Box
            sx={{
              flex: 1,
              minWidth: 0,
              borderLeft: 4,
              borderColor: "primary.main",
              pl: 1,
              bgcolor: "action.hover",
              borderRadius: 1,
              py: 0.5,
            }}
          >
            <Typography variant="caption" sx={{ fontWeight: 700 }}>
              {t("chat.replyingTo")} {replyTo.fromMe ? t("chat.you") : (replyTo.contact?.name ?? "")}
            </Typography>
            <Typography variant="body2" noWrap>
              {replyTo.body || replyTo.mediaType}
            </Typography>
          </Box>
          <IconButton size="small" aria-label={t("chat.cancelReply")} onClick={onCancelReply}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      {files.length > 0 && (
        <Box sx={{ display: "flex", gap: 1, px: 1.5, pt: 1, overflowX: "auto" }} data-testid="attachments">
          {previews.map(({ f, url }, i) => (
            <Box
              key={`${f.name}-${f.size}-${f.lastModified}`}
              sx={{ position: "relative", flexShrink: 0, width: 96, border: 1, borderColor: "divider", borderRadius: 1, p: 0.5 }}
            >
              {url ? (
                <Box component="img" src={url} alt={f.name} sx={{ width: "100%", height: 64, objectFit: "cover", borderRadius: 0.5 }} />
              ) : (
                <Box sx={{ height: 64, display: "flex", alignItems: "center", justifyContent: "center" }}>
                  <InsertDriveFileIcon color="action" />
                </Box>
              )}
              <Typography variant="caption" noWrap sx={{ display: "block" }}>
                {f.name}
              </Typography>
              <IconButton
                size="small"
                aria-label={t("chat.removeFile")}
                onClick={() => setFiles(files.filter((_, j) => j !== i))}
                sx={{
                  position: "absolute",
                  top: -8,
                  right: -8,
                  bgcolor: "background.paper",
                  p: 0.25,
                  "&:hover": { bgcolor: "background.paper" },
                }}
              >
                <CloseIcon sx={{ fontSize: 14 }} />
              </IconButton>
            </Box>
          ))}
        </Box>
      )}
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 0.25, p: 0.75 }}>
        {recording || busyAudio ? (
          <>
            <Box sx={{ flex: 1, display: "flex", alignItems: "center", gap: 1, px: 1, minHeight: 40 }} data-testid="recording">
              <Box sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: "error.main" }} />
              <Typography variant="body2">{t("chat.recording")}</Typography>
            </Box>
            {busyAudio ? (
              <CircularProgress size={24} sx={{ m: 1 }} />
            ) : (
              <>
                <Tooltip title={t("chat.cancelRecord")}>
                  <IconButton aria-label={t("chat.cancelRecord")} onClick={cancelRec} color="error">
                    <CancelIcon />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t("chat.stopRecord")}>
                  <IconButton aria-label={t("chat.stopRecord")} onClick={() => void stopRec()} color="success">
                    <CheckCircleIcon />
                  </IconButton>
                </Tooltip>
              </>
            )}
          </>
        ) : (
          <>
            {compact ? (
              <Tooltip title={t("chat.more")}>
                <IconButton
                  ref={moreRef}
                  aria-label={t("chat.more")}
                  aria-haspopup="menu"
                  aria-expanded={menuAnchor ? true : undefined}
                  aria-controls={menuAnchor ? "composer-menu" : undefined}
                  data-testid="composer-more"
                  onClick={(e) => setMenuAnchor(e.currentTarget)}
                  // note mode is on: the button says so, the text box too
                  sx={noteMode ? { color: "warning.main" } : undefined}
                >
                  <AddCircleOutlineIcon />
                </IconButton>
              </Tooltip>
            ) : (
              <>
                <Tooltip title={t("chat.emoji")}>
                  <IconButton aria-label={t("chat.emoji")} onClick={(e) => setEmojiAnchor(e.currentTarget)}>
                    <MoodIcon />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t("chat.audios")}>
                  <IconButton aria-label={t("chat.audios")} onClick={(e) => setAudioAnchor(e.currentTarget)}>
                    <LibraryMusicIcon />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t("chat.attach")}>
                  <IconButton aria-label={t("chat.attach")} onClick={() => fileRef.current?.click()}>
                    <AttachFileIcon />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t(noteMode ? "chat.noteOff" : "chat.noteOn")}>
                  <IconButton
                    aria-label={t("chat.noteToggle")}
                    aria-pressed={noteMode}
                    data-testid="note-toggle"
                    onClick={toggleNote}
                    sx={noteMode ? { color: "warning.main" } : undefined}
                  >
                    <LockIcon />
                  </IconButton>
                </Tooltip>
                {assist?.(pickAnswer)}
              </>
            )}
            <input
              ref={fileRef}
              type="file"
              multiple
              hidden
              data-testid="file-input"
              onChange={(e) => {
                const list = e.target.files ? [...e.target.files] : [];
                if (list.length) addFiles(list);
                e.target.value = "";
              }}
            />
            <Box
              data-note={asNote || undefined}
              sx={{
                flex: 1,
                minWidth: 0,
                bgcolor: asNote ? noteBg : "action.hover",
                border: asNote ? 1 : 0,
                borderColor: noteBorder,
                borderRadius: 2,
                px: 1.5,
                py: 0.75,
                alignSelf: "center",
              }}
            >
              <InputBase
                inputRef={inputRef}
                multiline
                maxRows={MESSAGE_INPUT_MAX_ROWS}
                fullWidth
                value={text}
                placeholder={
                  asNote
                    ? t(compact ? "chat.notePlaceholderShort" : "chat.notePlaceholder")
                    : files.length
                      ? t("chat.caption")
                      : t(compact ? "chat.typeMessage" : "chat.typeQuick")
                }
                inputProps={{ "aria-label": t("chat.typeMessage"), "data-testid": "message-input" }}
                onChange={(e) => {
                  setText(e.target.value);
                  touchTyping();
                }}
                onPaste={(e) => {
                  const pasted = [...e.clipboardData.files];
                  if (pasted.length) {
                    e.preventDefault();
                    addFiles(pasted);
                  }
                }}
                onKeyDown={(e) => {
                  if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
                  e.preventDefault();
                  if (answers.length > 0) pickAnswer(answers[0].message);
                  else void submit();
                }}
              />
              <MessageLimitCounter length={text.trim().length} />
            </Box>
            {!compact && (
              <FormControlLabel
                control={<Checkbox size="small" checked={sign} onChange={(e) => toggleSign(e.target.checked)} />}
                label={t("chat.sign")}
                sx={{ mx: 0, "& .MuiFormControlLabel-label": { fontSize: 12 } }}
              />
            )}
            {text.trim() || files.length ? (
              <Tooltip title={t("chat.send")}>
                <span>
                  <IconButton
                    aria-label={t("chat.send")}
                    color="primary"
                    disabled={send.isPending || overLimit}
                    onClick={() => void submit()}
                  >
                    {send.isPending ? <CircularProgress size={22} /> : <SendIcon />}
                  </IconButton>
                </span>
              </Tooltip>
            ) : (
              <Tooltip title={t("chat.record")}>
                <IconButton aria-label={t("chat.record")} onClick={() => void startRec()}>
                  <MicIcon />
                </IconButton>
              </Tooltip>
            )}
          </>
        )}
      </Box>
      <Popover
        open={Boolean(audioAnchor)}
        anchorEl={audioAnchor}
        onClose={() => setAudioAnchor(null)}
        anchorOrigin={{ vertical: "top", horizontal: "left" }}
        transformOrigin={{ vertical: "bottom", horizontal: "left" }}
      >
        <Box sx={{ width: 280, maxWidth: "90vw", maxHeight: 320, overflow: "auto" }} data-testid="audio-entries">
          {audios.isPending ? (
            <Box sx={{ p: 2, textAlign: "center" }}>
              <CircularProgress size={22} />
            </Box>
          ) : audios.data?.length ? (
            <List dense>
              {audios.data.map((a) => (
                <ListItemButton
                  key={a.id}
                  disabled={send.isPending}
                  onClick={async () => {
                    setAudioAnchor(null);
                    try {
                      await send.mutateAsync({ body: "", files: [await audioEntryFile(a)] });
                    } catch (err) {
                      toastError(err);
                    }
                  }}
                >
                  <ListItemText primary={a.titulo} />
                </ListItemButton>
              ))}
            </List>
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {t("chat.noAudios")}
            </Typography>
          )}
        </Box>
      </Popover>
      <Popover
        open={Boolean(emojiAnchor)}
        anchorEl={emojiAnchor}
        onClose={() => setEmojiAnchor(null)}
        anchorOrigin={{ vertical: "top", horizontal: "left" }}
        transformOrigin={{ vertical: "bottom", horizontal: "left" }}
      >
        <Box sx={{ display: "grid", gridTemplateColumns: "repeat(8, 36px)", p: 1 }} data-testid="emoji-grid">
          {EMOJIS.map((e) => (
            <IconButton key={e} onClick={() => insertEmoji(e)} sx={{ fontSize: 20, width: 36, height: 36 }} aria-label={e}>
              {e}
            </IconButton>
          ))}
        </Box>
      </Popover>
      {compact && (
        // kept mounted: what an item opens (the AI suggestions) lives on after the menu closes
        <Menu
          id="composer-menu"
          anchorEl={menuAnchor}
          open={Boolean(menuAnchor)}
          onClose={() => setMenuAnchor(null)}
          keepMounted
          anchorOrigin={{ vertical: "top", horizontal: "left" }}
          transformOrigin={{ vertical: "bottom", horizontal: "left" }}
          slotProps={{ list: { "data-testid": "composer-menu" } as object }}
        >
          {menuItem({
            icon: <MoodIcon />,
            label: t("chat.emoji"),
            onClick: () => setEmojiAnchor(moreRef.current),
            testId: "composer-emoji",
          })}
          {menuItem({
            icon: <LibraryMusicIcon />,
            label: t("chat.audios"),
            onClick: () => setAudioAnchor(moreRef.current),
            testId: "composer-audios",
          })}
          {menuItem({
            icon: <AttachFileIcon />,
            label: t("chat.attach"),
            onClick: () => fileRef.current?.click(),
            testId: "composer-attach",
          })}
          {/* the "/" the placeholder no longer has room to mention: lists the quick answers */}
          {menuItem({
            icon: <QuickreplyIcon />,
            label: t("chat.quickAnswers"),
            onClick: () => pickAnswer("/"),
            disabled: text !== "",
            testId: "composer-quick",
          })}
          <MenuItem
            role="menuitemcheckbox"
            aria-checked={noteMode}
            data-testid="note-toggle"
            onClick={() => {
              setMenuAnchor(null);
              toggleNote();
            }}
          >
            <ListItemIcon>
              <LockIcon sx={noteMode ? { color: "warning.main" } : undefined} />
            </ListItemIcon>
            <ListItemText>{t("chat.noteToggle")}</ListItemText>
            <Switch
              size="small"
              edge="end"
              checked={noteMode}
              tabIndex={-1}
              slotProps={{ input: { "aria-hidden": true } }}
              sx={{ pointerEvents: "none", ml: 1 }}
            />
          </MenuItem>
          {assist?.(pickAnswer, { render: menuItem, panelContainer: box })}
          <MenuItem role="menuitemcheckbox" aria-checked={sign} data-testid="composer-sign" onClick={() => toggleSign(!sign)}>
            <ListItemIcon>
              <DrawIcon />
            </ListItemIcon>
            <ListItemText>{t("chat.sign")}</ListItemText>
            <Switch
              size="small"
              edge="end"
              checked={sign}
              tabIndex={-1}
              slotProps={{ input: { "aria-hidden": true } }}
              sx={{ pointerEvents: "none", ml: 1 }}
            />
          </MenuItem>
        </Menu>
      )}
    </Box>
  );
}
