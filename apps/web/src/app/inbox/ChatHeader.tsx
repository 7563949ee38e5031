import type { Ticket } from "@balcao/contract";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import CheckIcon from "@mui/icons-material/Check";
import EventIcon from "@mui/icons-material/Event";
import MoreVertIcon from "@mui/icons-material/MoreVert";
import PixIcon from "@mui/icons-material/Pix";
import ReplayIcon from "@mui/icons-material/Replay";
import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { type ReactNode, type Ref, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { AiSummaryButton, AiSummaryPanel, useAiEnabled } from "../../features/ai";
import { useAuth } from "../../features/auth";
import { ContractAction } from "../../features/contracts";
import { ScheduleDialog } from "../../features/schedules";
import { useSettings } from "../../features/settings";
import { TransferTicketDialog, useUpdateTicket } from "../../features/tickets";
import { initials } from "../../lib/hooks";
import { toastError, toastSuccess } from "../../lib/toast";
import { useWidth } from "../../lib/use-width";
import { ContactDrawer } from "./ContactDrawer";

/** The URL Gerar PIX opens: the configured address with the contact number and the agent id. */
export function pixUrl(base: string, number: string, userId: number) {
  const u = new URL(base, window.location.origin);
  u.searchParams.set("number", number);
  u.searchParams.set("userId", String(userId));
  return u.toString();
}

/**
 * How the ticket's actions show: `full` an outlined button with icon and text, `icon` an icon with
 * its name as tooltip and accessible name, `menu` an item of the header's overflow menu (where even
 * the icons would squeeze the contact's name), `stacked` the icon over its name in the actions row
 * under the contact (phones, where a bare icon would say nothing).
 */
type ActionMode = "full" | "icon" | "menu" | "stacked";

/** The header's parts beside the name and the actions: its padding, back, the avatar and the gaps (px). */
export const HEADER_FIXED_PX = 136;
/**
 * Room kept for the contact's name beside the actions (about a first name and a surname): a shorter
 * name needs only its own width; a longer one gets what the row leaves, with an ellipsis and a tooltip.
 */
export const NAME_ROOM_PX = 200;
/** An icon button (40) and the gap after it. */
const ICON_PX = 44;
/** In the overflow mode, how many of `count` actions stay in the row as icons beside the menu's button (Finalizar at least). */
export function iconsInView({ width, count, nameWidth }: { width: number; count: number; nameWidth: number }) {
  const room = width - HEADER_FIXED_PX - Math.min(nameWidth, NAME_ROOM_PX);
  return Math.min(count - 1, Math.max(1, Math.floor(room / ICON_PX) - 1));
}

/** A phone's action with its name under the icon: room for a word like 'Transferir'. */
const STACKED_PX = 72;

/**
 * How many of `count` actions stay in a phone's row this wide (the first ones go into 'Mais'): all
 * when each has STACKED_PX, else as many as fit beside 'Mais'.
 */
export function stackedInView(count: number, width: number) {
  if (width === 0) return count;
  const slots = Math.max(3, Math.floor((width - 16) / STACKED_PX));
  return count <= slots ? count : slots - 1;
}

/**
 * The actions' look for a header this wide, the name first: text buttons when they fit beside the
 * name (up to NAME_ROOM_PX of it), else icons, else an overflow menu (Finalizar stays an icon).
 * `fullWidth` is the row of text buttons as laid out; 0 for a width not measured yet.
 */
export function headerActionsMode({
  width,
  fullWidth,
  count,
  nameWidth,
}: {
  width: number;
  fullWidth: number;
  count: number;
  nameWidth: number;
}): "full" | "icon" | "menu" {
  if (width === 0 || fullWidth === 0) return "full";
  const room = width - HEADER_FIXED_PX - Math.min(nameWidth, NAME_ROOM_PX);
  if (room >= fullWidth) return "full";
  if (room >= count * ICON_PX) return "icon";
  return "menu";
}

function Action({
  label,
  icon,
  onClick,
  color,
  mode,
  busy,
  testId,
  closeMenu,
  anchorRef,
  ariaLabel,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  color?: "primary" | "error" | "success" | "inherit";
  mode: ActionMode;
  busy?: boolean;
  testId?: string;
  /** in the overflow menu: closes it before acting */
  closeMenu?: () => void;
  /** the button of a stacked action (what a menu opens against) */
  anchorRef?: Ref<HTMLButtonElement>;
  /** a longer accessible name than the label on screen ('Mais ações' for 'Mais') */
  ariaLabel?: string;
}) {
  if (mode === "menu")
    return (
      <MenuItem
        disabled={busy}
        data-testid={testId}
        onClick={() => {
          closeMenu?.();
          onClick();
        }}
      >
        <ListItemIcon sx={color && color !== "inherit" ? { color: `${color}.main` } : undefined}>{icon}</ListItemIcon>
        <ListItemText>{label}</ListItemText>
      </MenuItem>
    );
  if (mode === "stacked")
    return (
      <Tooltip title={label}>
        <span style={{ flex: 1, minWidth: 0, display: "flex" }}>
          <Button
            ref={anchorRef}
            size="small"
            color={color ?? "inherit"}
            onClick={onClick}
            disabled={busy}
            aria-label={ariaLabel}
            data-testid={testId}
            sx={{
              flex: 1,
              minWidth: 0,
              flexDirection: "column",
              gap: 0.25,
              py: 0.5,
              px: 0.5,
              fontSize: 12,
              lineHeight: 1.2,
              textTransform: "none",
              "& .label": { maxWidth: "100%", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
            }}
          >
            {icon}
            <span className="label">{label}</span>
          </Button>
        </span>
      </Tooltip>
    );
  if (mode === "icon")
    return (
      <Tooltip title={label}>
        <span>
          <IconButton aria-label={label} onClick={onClick} color={color} disabled={busy} data-testid={testId}>
            {icon}
          </IconButton>
        </span>
      </Tooltip>
    );
  return (
    <Button
      size="small"
      variant="outlined"
      color={color}
      startIcon={icon}
      onClick={onClick}
      disabled={busy}
      sx={{ flexShrink: 0, whiteSpace: "nowrap" }}
      data-testid={testId}
    >
      {label}
    </Button>
  );
}

/** The chat's top bar: back, the contact (opens the drawer) and the ticket's actions. */
export function ChatHeader({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down("lg"));
  const phone = useMediaQuery(theme.breakpoints.down("sm"));
  const { get } = useSettings();
  const aiEnabled = useAiEnabled();
  const update = useUpdateTicket();
  const [drawer, setDrawer] = useState(false);
  const [transfer, setTransfer] = useState<Ticket | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const [moreAnchor, setMoreAnchor] = useState<HTMLElement | null>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  /** Finalizar asks first: it ends the conversation and sends the farewell (as deletions ask). */
  const [confirmClose, setConfirmClose] = useState(false);
  const mine = ticket.userId === user?.id;
  const actions = ticket.status === "open" && !ticket.isGroup && mine;
  const pixUrlSetting = get("urlPix");
  const showPix = get("pix") === "enabled" && Boolean(pixUrlSetting) && Boolean(ticket.contact.number);
  const showContract = get("enableContract") === "enabled";

  // what the header has room for is measured, not guessed from the window: the chat pane is narrower
  // than the screen (the drawer and the ticket list beside it) and the labels' widths vary by language
  const [headerRef, headerWidth] = useWidth<HTMLDivElement>();
  const [fullRef, fullWidth] = useWidth<HTMLDivElement>();
  const [nameCopyRef, nameWidth] = useWidth<HTMLSpanElement>();
  const [nameRef, nameShown] = useWidth<HTMLSpanElement>();
  const count = (aiEnabled ? 1 : 0) + (showPix ? 1 : 0) + (showContract ? 1 : 0) + 3;
  const mode: ActionMode = phone ? "stacked" : headerActionsMode({ width: headerWidth, fullWidth, count, nameWidth });
  // the name is cut only when truly needed; then its tooltip has all of it
  const nameCut = nameShown > 0 && nameWidth > nameShown + 1;
  const closeMore = () => setMoreAnchor(null);

  const setStatus = (status: "open" | "closed") =>
    update.mutate(
      { id: ticket.id, body: status === "open" ? { status, userId: user?.id } : { status } },
      {
        onSettled: () => setConfirmClose(false),
        onSuccess: () => {
          if (status === "closed") {
            toastSuccess(t("tickets.closedOk"));
            navigate("/tickets");
          }
        },
      },
    );

  const subtitle =
    ticket.status === "pending"
      ? t("chat.waiting")
      : ticket.status === "closed"
        ? t("chat.closed")
        : ticket.user
          ? t("chat.assignedTo", { name: ticket.user.name })
          : "";

  /**
   * The ticket's actions, the ones to keep in view last (Finalizar, Transferir, Agendar): where the
   * row has too little room the first ones go into the overflow menu, drawn as its items.
   */
  const list: { key: string; draw: (m: ActionMode) => ReactNode }[] = [
    ...(aiEnabled
      ? [
          {
            key: "summary",
            draw: (m: ActionMode) => (
              <AiSummaryButton
                key="summary"
                ticketId={ticket.id}
                // beside the others as an icon (as it always was); with its name where the others have theirs
                render={
                  m === "full" || m === "icon"
                    ? undefined
                    : ({ icon, label, onClick, testId }) => (
                        <Action mode={m} label={label} icon={icon} onClick={onClick} testId={testId} closeMenu={closeMore} />
                      )
                }
              />
            ),
          },
        ]
      : []),
    ...(showPix
      ? [
          {
            key: "pix",
            draw: (m: ActionMode) => (
              <Action
                key="pix"
                mode={m}
                closeMenu={closeMore}
                label={t("chat.pix")}
                icon={<PixIcon />}
                testId="action-pix"
                onClick={() => {
                  if (!ticket.contact.number) return toastError(t("tickets.noNumber"));
                  window.open(pixUrl(pixUrlSetting, ticket.contact.number, user?.id ?? 0), "_blank", "noopener");
                }}
              />
            ),
          },
        ]
      : []),
    ...(showContract
      ? [
          {
            key: "contract",
            draw: (m: ActionMode) => (
              <ContractAction
                key="contract"
                ticket={ticket}
                render={({ icon, onClick }) => (
                  <Action
                    mode={m}
                    closeMenu={closeMore}
                    label={t("chat.contract")}
                    icon={icon}
                    onClick={onClick}
                    testId="action-contract"
                  />
                )}
              />
            ),
          },
        ]
      : []),
    {
      key: "schedule",
      draw: (m) => (
        <Action
          key="schedule"
          mode={m}
          closeMenu={closeMore}
          label={t("chat.schedule")}
          icon={<EventIcon />}
          onClick={() => setScheduling(true)}
          testId="action-schedule"
        />
      ),
    },
    {
      key: "transfer",
      draw: (m) => (
        <Action
          key="transfer"
          mode={m}
          closeMenu={closeMore}
          label={t("chat.transfer")}
          icon={<SwapHorizIcon />}
          onClick={() => setTransfer(ticket)}
          testId="action-transfer"
        />
      ),
    },
    {
      key: "close",
      draw: (m) => (
        <Action
          key="close"
          mode={m}
          closeMenu={closeMore}
          label={t("chat.close")}
          icon={<CheckIcon />}
          color="success"
          busy={update.isPending}
          onClick={() => setConfirmClose(true)}
          testId="action-close"
        />
      ),
    },
  ];
  // how many stay in the row: all of them, or (in the overflow modes) those that fit beside 'Mais ações'
  const shown = phone
    ? stackedInView(list.length, headerWidth)
    : mode === "menu"
      ? iconsInView({ width: headerWidth, count: list.length, nameWidth })
      : list.length;
  const folded = list.slice(0, list.length - shown);
  const inRow = list.slice(list.length - shown);
  const rowMode: ActionMode = mode === "menu" ? "icon" : mode;

  return (
    <Box
      ref={headerRef}
      sx={{
        display: "flex",
        flexWrap: phone ? "wrap" : "nowrap",
        alignItems: "center",
        gap: 1,
        rowGap: 0.5,
        px: 1,
        py: 0.75,
        borderBottom: 1,
        borderColor: "divider",
        minHeight: 60,
        position: "relative",
      }}
      data-testid="chat-header"
      data-actions-mode={actions ? mode : undefined}
    >
      {/* the row of text buttons and the whole name, laid out unseen: what the header measures against */}
      <Box aria-hidden sx={{ position: "absolute", width: 0, height: 0, overflow: "hidden", visibility: "hidden" }}>
        {actions && !phone && (
          <Box ref={fullRef} sx={{ display: "flex", gap: 0.5, width: "max-content" }}>
            {aiEnabled && <Box sx={{ width: 40, flexShrink: 0 }} />}
            {[
              ...(showPix ? [[t("chat.pix"), <PixIcon key="i" />] as const] : []),
              ...(showContract ? [[t("chat.contract"), <EventIcon key="i" />] as const] : []),
              [t("chat.schedule"), <EventIcon key="i" />] as const,
              [t("chat.transfer"), <SwapHorizIcon key="i" />] as const,
              [t("chat.close"), <CheckIcon key="i" />] as const,
            ].map(([label, icon]) => (
              <Button
                key={label}
                size="small"
                variant="outlined"
                startIcon={icon}
                tabIndex={-1}
                sx={{ flexShrink: 0, whiteSpace: "nowrap" }}
              >
                {label}
              </Button>
            ))}
          </Box>
        )}
        <Typography
          ref={nameCopyRef}
          component="span"
          variant="subtitle1"
          sx={{ fontWeight: 600, whiteSpace: "nowrap", width: "max-content", display: "block" }}
        >
          {ticket.contact.name}
        </Typography>
      </Box>
      <Tooltip title={t("chat.back")}>
        <IconButton aria-label={t("chat.back")} onClick={() => navigate("/tickets")}>
          <ArrowBackIcon />
        </IconButton>
      </Tooltip>
      <Box
        role="button"
        tabIndex={0}
        onClick={() => setDrawer(true)}
        onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && setDrawer(true)}
        sx={{ display: "flex", alignItems: "center", gap: 1, flex: 1, minWidth: 0, cursor: "pointer" }}
        aria-label={t("chat.contactInfo")}
      >
        <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
          {initials(ticket.contact.name)}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Tooltip title={nameCut ? ticket.contact.name : ""}>
            <Typography
              ref={nameRef}
              variant="subtitle1"
              noWrap
              sx={{ fontWeight: 600, lineHeight: 1.3 }}
              data-testid="chat-contact-name"
              data-cut={nameCut || undefined}
            >
              {ticket.contact.name}
            </Typography>
          </Tooltip>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {ticket.queue ? `${ticket.queue.name} · ` : ""}
            {subtitle}
          </Typography>
        </Box>
      </Box>
      {actions && (
        // on phones a row of its own under the contact, each action with its name
        <Box
          sx={phone ? { display: "flex", width: "100%", order: 3 } : { display: "flex", gap: 0.5, flexShrink: 0, alignItems: "center" }}
          data-testid="chat-actions"
        >
          {inRow.map((a) => a.draw(rowMode))}
          {folded.length > 0 &&
            (phone ? (
              <Action
                mode="stacked"
                label={t("chat.moreShort")}
                icon={<MoreVertIcon />}
                onClick={() => setMoreAnchor(moreRef.current)}
                testId="chat-actions-more"
                anchorRef={moreRef}
                ariaLabel={t("chat.more")}
              />
            ) : (
              <Tooltip title={t("chat.more")}>
                <IconButton
                  ref={moreRef}
                  aria-label={t("chat.more")}
                  aria-haspopup="menu"
                  aria-expanded={moreAnchor ? true : undefined}
                  aria-controls={moreAnchor ? "chat-actions-menu" : undefined}
                  onClick={(e) => setMoreAnchor(e.currentTarget)}
                  data-testid="chat-actions-more"
                >
                  <MoreVertIcon />
                </IconButton>
              </Tooltip>
            ))}
          {folded.length > 0 && (
            // kept mounted: the dialogs an item opens (Contrato, Resumo) live on after the menu closes
            <Menu
              id="chat-actions-menu"
              anchorEl={moreAnchor}
              open={Boolean(moreAnchor)}
              onClose={closeMore}
              keepMounted
              anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
              transformOrigin={{ vertical: "top", horizontal: "right" }}
            >
              {folded.map((a) => a.draw("menu"))}
            </Menu>
          )}
        </Box>
      )}
      <Box sx={{ display: "flex", gap: 0.5, flexShrink: 0, alignItems: "center" }}>
        {ticket.status === "closed" && (
          <Action
            mode={phone || !compact ? "full" : "icon"}
            label={t("chat.reopen")}
            icon={<ReplayIcon />}
            busy={update.isPending}
            onClick={() => setStatus("open")}
            testId="action-reopen"
          />
        )}
        {ticket.status === "pending" && (
          <Button
            size="small"
            variant="contained"
            color="success"
            disabled={update.isPending}
            onClick={() => setStatus("open")}
            data-testid="action-accept"
          >
            {t("chat.accept")}
          </Button>
        )}
      </Box>
      <ContactDrawer
        contactId={ticket.contactId}
        ticketId={ticket.id}
        canAct={ticket.status === "open" && !ticket.isGroup && (mine || user?.profile === "admin" || user?.profile === "superv")}
        open={drawer}
        onClose={() => setDrawer(false)}
      />
      <TransferTicketDialog
        ticket={transfer}
        onClose={() => setTransfer(null)}
        onDone={() => navigate("/tickets")}
        extra={(t) => <AiSummaryPanel ticketId={t.id} />}
      />
      <ConfirmDialog
        open={confirmClose}
        title={t("chat.closeConfirm.title", { name: ticket.contact.name })}
        text={t("chat.closeConfirm.text")}
        confirmLabel={t("chat.close")}
        confirmColor="success"
        busy={update.isPending}
        onConfirm={() => setStatus("closed")}
        onClose={() => setConfirmClose(false)}
      />
      {scheduling && <ScheduleDialog ticket={ticket} open={scheduling} onClose={() => setScheduling(false)} />}
    </Box>
  );
}
