import { BUBBLE_MAX_WIDTH, type Message } from "@balcao/contract";
import AccessTimeIcon from "@mui/icons-material/AccessTime";
import BlockIcon from "@mui/icons-material/Block";
import CallIcon from "@mui/icons-material/Call";
import DoneIcon from "@mui/icons-material/Done";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import ErrorOutlineIcon from "@mui/icons-material/ErrorOutline";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFile";
import LockIcon from "@mui/icons-material/Lock";
import PersonIcon from "@mui/icons-material/Person";
import PlaceIcon from "@mui/icons-material/Place";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { memo, useState } from "react";
import { useTranslation } from "react-i18next";
import { clock } from "../../../lib/time";
import { formatPhone } from "../../../lib/phone";
import { formatText } from "../format";
import { noteBg, noteBorder, noteText } from "../note-colors";
import { Transcription } from "./Transcription";

export function AckIcon({ ack, failed }: { ack: number; failed?: boolean }) {
  const sx = { fontSize: 16, verticalAlign: "middle" };
  if (failed) return <ErrorOutlineIcon data-testid="ack-failed" color="error" sx={sx} />;
  if (ack <= 0) return <AccessTimeIcon data-testid="ack-0" sx={sx} />;
  if (ack === 1) return <DoneIcon data-testid="ack-1" sx={sx} />;
  if (ack === 2) return <DoneAllIcon data-testid="ack-2" sx={sx} />;
  return <DoneAllIcon data-testid={`ack-${ack}`} sx={{ ...sx, color: "#34b7f1" }} />;
}

export function bubbleColors(dark: boolean, fromMe: boolean) {
  if (dark) return fromMe ? { bg: "#005c4b", fg: "#e9edef" } : { bg: "#202c33", fg: "#e9edef" };
  return fromMe ? { bg: "#d9fdd3", fg: "#111b21" } : { bg: "#ffffff", fg: "#111b21" };
}

const mapsUrl = (body: string) => {
  const m = /(-?\d{1,3}\.\d+)\s*,\s*(-?\d{1,3}\.\d+)/.exec(body);
  const q = m ? `${m[1]},${m[2]}` : body;
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(q)}`;
};

function Media({ m, onImage }: { m: Message; onImage: (url: string) => void }) {
  const { t } = useTranslation();
  const url = m.mediaUrl;
  switch (m.mediaType) {
    case "image":
    case "sticker":
      return url ? (
        <Box
          component="img"
          src={url}
          alt={m.fileName ?? t("chat.image")}
          loading="lazy"
          onClick={() => onImage(url)}
          data-testid="message-image"
          sx={{
            display: "block",
            maxWidth: "100%",
            width: m.mediaType === "sticker" ? 140 : 280,
            maxHeight: 320,
            objectFit: "cover",
            borderRadius: 1,
            cursor: "zoom-in",
            mb: 0.5,
          }}
        />
      ) : null;
    case "audio":
      return url ? (
        <Box
          component="audio"
          controls
          preload="metadata"
          src={url}
          data-testid="message-audio"
          sx={{ display: "block", width: 260, maxWidth: "100%" }}
        />
      ) : null;
    case "video":
      return url ? (
        <Box
          component="video"
          controls
          preload="metadata"
          src={url}
          sx={{ display: "block", width: 300, maxWidth: "100%", maxHeight: 320, borderRadius: 1 }}
        />
      ) : null;
    case "document":
    case "other":
      return url ? (
        <Button
          component="a"
          href={url}
          download={m.fileName ?? true}
          target="_blank"
          rel="noreferrer"
          startIcon={<InsertDriveFileIcon />}
          variant="outlined"
          size="small"
          sx={{ maxWidth: "100%", justifyContent: "flex-start", textTransform: "none", mb: 0.5, color: "inherit" }}
        >
          <Box component="span" sx={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
            {m.fileName ?? t("chat.download")}
          </Box>
        </Button>
      ) : null;
    default:
      return null;
  }
}

interface Props {
  message: Message;
  dark: boolean;
  isGroup: boolean;
  onReply: (m: Message) => void;
  onDelete: (m: Message) => void;
  onImage: (url: string) => void;
  /** 'Reenviar' on a message that could not be sent (shown to who may write in the ticket) */
  onResend?: (m: Message) => void;
  canReply: boolean;
}

/** One message: media by type, quoted message, bold and struck text, time and, for ours, the ack mark. */
export const MessageBubble = memo(function MessageBubble({
  message: m,
  dark,
  isGroup,
  onReply,
  onDelete,
  onImage,
  onResend,
  canReply: canReplyTo,
}: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const note = m.internal === true;
  const c = bubbleColors(dark, m.fromMe);
  // a note is never replied to (the customer never saw it)
  const canReply = canReplyTo && !note;
  const showBody =
    m.body &&
    !(m.mediaType === "image" && m.body === m.fileName) &&
    m.mediaType !== "vcard" &&
    m.mediaType !== "location" &&
    m.mediaType !== "call_log";

  let special: React.ReactNode = null;
  if (!m.isDeleted && m.mediaType === "location")
    special = (
      <Link
        href={mapsUrl(m.body)}
        target="_blank"
        rel="noreferrer"
        color="inherit"
        sx={{ display: "flex", gap: 0.5, alignItems: "center" }}
      >
        <PlaceIcon fontSize="small" color="error" />
        {m.body || t("chat.openMap")}
      </Link>
    );
  if (!m.isDeleted && m.mediaType === "vcard") {
    const number = /waid=(\d+)|TEL[^:]*:([+\d\s-]+)/i.exec(m.body);
    const name = /FN:(.+)/i.exec(m.body)?.[1] ?? m.body.split("\n")[0];
    special = (
      <Box sx={{ display: "flex", gap: 1, alignItems: "center", minWidth: 180 }} data-testid="message-vcard">
        <Avatar sx={{ width: 36, height: 36 }}>
          <PersonIcon />
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>
            {name || t("chat.contactCard")}
          </Typography>
          {number && (
            <Typography variant="caption" noWrap>
              {formatPhone(number[1] ?? number[2])}
            </Typography>
          )}
        </Box>
      </Box>
    );
  }
  if (!m.isDeleted && m.mediaType === "call_log")
    special = (
      <Box sx={{ display: "flex", gap: 1, alignItems: "center" }} data-testid="message-call">
        <CallIcon fontSize="small" color="error" />
        <Typography variant="body2">{m.body || t("chat.call")}</Typography>
      </Box>
    );

  return (
    <Box
      data-testid="message"
      data-message-id={m.id}
      data-from-me={m.fromMe}
      data-internal={note || undefined}
      sx={{ display: "flex", justifyContent: m.fromMe ? "flex-end" : "flex-start", px: { xs: 1, sm: 2 }, py: 0.25 }}
    >
      <Box
        sx={{
          position: "relative",
          maxWidth: `min(${BUBBLE_MAX_WIDTH}px, 85%)`,
          minWidth: 90,
          bgcolor: note ? noteBg : c.bg,
          color: c.fg,
          ...(note && { border: "1px dashed", borderColor: noteBorder }),
          borderRadius: 2,
          borderTopRightRadius: m.fromMe ? 2 : 8,
          borderTopLeftRadius: m.fromMe ? 8 : 2,
          px: 1,
          pt: 0.75,
          pb: 0.5,
          boxShadow: theme.shadows[1],
          "&:hover .msg-menu, & .msg-menu:focus-visible": { opacity: 1 },
        }}
      >
        {(canReply || (m.fromMe && !m.isDeleted)) && (
          <IconButton
            className="msg-menu"
            size="small"
            aria-label={t("chat.messageMenu")}
            onClick={(e) => setMenu(e.currentTarget)}
            sx={{
              position: "absolute",
              top: 0,
              right: 0,
              opacity: { xs: 0.6, md: 0 },
              p: 0.25,
              color: "inherit",
              bgcolor: note ? noteBg : c.bg,
              "&:hover": { bgcolor: note ? noteBg : c.bg },
            }}
          >
            <ExpandMoreIcon fontSize="small" />
          </IconButton>
        )}
        <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
          {canReply && (
            <MenuItem
              onClick={() => {
                setMenu(null);
                onReply(m);
              }}
            >
              {t("chat.reply")}
            </MenuItem>
          )}
          {m.fromMe && !m.isDeleted && (
            <MenuItem
              onClick={() => {
                setMenu(null);
                onDelete(m);
              }}
            >
              {t("chat.deleteMessage")}
            </MenuItem>
          )}
        </Menu>
        {note && (
          <Typography
            variant="caption"
            data-testid="note-label"
            sx={{ display: "flex", alignItems: "center", gap: 0.5, fontWeight: 700, color: noteText, pr: 3 }}
          >
            <LockIcon sx={{ fontSize: 14 }} />
            {t("chat.internalNote")}
          </Typography>
        )}
        {isGroup && !m.fromMe && m.contact && (
          <Typography variant="caption" sx={{ display: "block", fontWeight: 700, color: "primary.main", pr: 3 }}>
            {m.contact.name}
          </Typography>
        )}
        {m.quotedMsg && (
          <Box
            data-testid="quoted-message"
            sx={{
              borderLeft: 4,
              borderColor: m.quotedMsg.fromMe ? "success.main" : "primary.main",
              bgcolor: dark ? "rgba(0,0,0,0.25)" : "rgba(0,0,0,0.05)",
              borderRadius: 1,
              px: 1,
              py: 0.5,
              mb: 0.5,
              mr: 3,
              overflow: "hidden",
            }}
          >
            <Typography variant="caption" sx={{ fontWeight: 700, display: "block" }} noWrap>
              {m.quotedMsg.fromMe ? t("chat.you") : (m.quotedMsg.contact?.name ?? "")}
            </Typography>
            <Typography
              variant="caption"
              sx={{
                display: "-webkit-box",
                WebkitLineClamp: 3,
                WebkitBoxOrient: "vertical",
                overflow: "hidden",
                whiteSpace: "pre-wrap",
                wordBreak: "break-word",
              }}
            >
              {m.quotedMsg.isDeleted
                ? t("chat.deletedMessage")
                : m.quotedMsg.body ||
                  t(`chat.${m.quotedMsg.mediaType === "chat" ? "document" : m.quotedMsg.mediaType}`, {
                    defaultValue: m.quotedMsg.mediaType,
                  })}
            </Typography>
          </Box>
        )}
        {m.isDeleted ? (
          <Typography
            variant="body2"
            sx={{ fontStyle: "italic", opacity: 0.75, display: "flex", alignItems: "center", gap: 0.5, pr: 2 }}
            data-testid="message-deleted"
          >
            <BlockIcon sx={{ fontSize: 16 }} />
            {t("chat.deletedMessage")}
          </Typography>
        ) : (
          <>
            <Media m={m} onImage={onImage} />
            {m.mediaType === "audio" && <Transcription transcription={m.transcription} />}
            {special}
            {showBody && (
              <Typography
                variant="body2"
                component="div"
                sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word", pr: 2, "& a": { color: dark ? "#53bdeb" : "#027eb5" } }}
                data-testid="message-body"
              >
                {formatText(m.body)}
              </Typography>
            )}
          </>
        )}
        <Box sx={{ display: "flex", justifyContent: "flex-end", alignItems: "center", gap: 0.5, opacity: 0.7, mt: 0.25 }}>
          {m.isEdited && <Typography variant="caption">{t("chat.edited")}</Typography>}
          <Typography variant="caption" sx={{ fontSize: 11 }}>
            {clock(m.createdAt)}
          </Typography>
          {m.fromMe && !note && <AckIcon ack={m.ack} failed={Boolean(m.sendError) && !m.isDeleted} />}
        </Box>
        {m.fromMe && m.sendError && !m.isDeleted && (
          <Box
            data-testid="message-failed"
            sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, mt: 0.5, flexWrap: "wrap" }}
          >
            <Tooltip title={m.sendError}>
              <Typography variant="caption" color="error" sx={{ fontWeight: 600 }}>
                {t("chat.notSent")}
              </Typography>
            </Tooltip>
            {onResend && (
              <Button size="small" color="error" variant="outlined" onClick={() => onResend(m)} sx={{ py: 0, minHeight: 0 }}>
                {t("chat.resend")}
              </Button>
            )}
          </Box>
        )}
      </Box>
    </Box>
  );
});
