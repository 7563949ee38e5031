import type { Message, Ticket } from "@balcao/contract";
import { useEffect } from "react";
import { useNavigate } from "react-router-dom";
import { useSocketEvent } from "../../lib/socket";
import { useAuth } from "../auth";
import { useNotificationSound } from "../profile";
import { clock } from "../../lib/time";
import { readVolume } from "../../lib/volume";
import { toastInfo } from "../../lib/toast";
import i18n from "i18next";

/** The ticket shown in the chat pane right now (set by the chat screen). */
export const openTicket = { id: 0 };

/** Whether a new message deserves a desktop notification and a sound (core §4 Notifications). */
export function shouldNotify(
  m: Pick<Message, "fromMe" | "ticketId">,
  t: Pick<Ticket, "id" | "userId" | "isGroup">,
  me: number,
  openId: number,
  visible: boolean,
): boolean {
  if (m.fromMe || t.isGroup) return false;
  if (t.userId !== null && t.userId !== me) return false;
  if (visible && openId === t.id) return false;
  return true;
}

let audio: AudioContext | undefined;
/** A short two-tone chime at the stored volume (Web Audio: no sound file to ship). */
export function playChime(volume = readVolume()) {
  if (volume <= 0) return;
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    const start = ctx.currentTime;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.4 * volume, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.5);
    for (const [f, at] of [
      [880, 0],
      [1320, 0.12],
    ] as const) {
      const osc = ctx.createOscillator();
      osc.frequency.value = f;
      osc.connect(gain);
      osc.start(start + at);
      osc.stop(start + 0.5);
    }
  } catch {
    /* no audio output */
  }
}

/** Desktop notification and sound for customer messages on the agent's tickets. */
export function useTicketNotifications() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const me = user?.id ?? 0;
  // "Som de notificação" of the user's profile: off, the desktop notifications and toasts stay, silent
  const sound = useNotificationSound();
  useEffect(() => {
    if (typeof Notification !== "undefined" && Notification.permission === "default") void Notification.requestPermission();
  }, []);
  useSocketEvent("appMessage", (p) => {
    if (p.action !== "create") return;
    if (!shouldNotify(p.message, p.ticket, me, openTicket.id, document.visibilityState === "visible")) return;
    if (sound) playChime();
    if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
    const body = `${p.message.body || p.message.mediaType} - ${clock(p.message.createdAt)}`;
    try {
      const n = new Notification(p.contact.name, { body, tag: `ticket-${p.ticket.id}`, icon: p.contact.profilePicUrl || undefined });
      n.onclick = () => {
        window.focus();
        navigate(`/tickets/${p.ticket.id}`);
        n.close();
      };
    } catch {
      /* notifications unavailable (e.g. some mobile browsers) */
    }
  });
  // an internal note named this user (@Name): a toast, the chime and a desktop notification that opens the ticket
  useSocketEvent("mention", (p) => {
    const title = i18n.t("tickets.mentionTitle", { name: p.byName });
    toastInfo(`${title}: ${p.body.slice(0, 120)}`);
    if (sound) playChime();
    if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
    try {
      const n = new Notification(title, { body: p.body.slice(0, 200), tag: `mention-${p.messageId}` });
      n.onclick = () => {
        window.focus();
        navigate(`/tickets/${p.ticketId}`);
        n.close();
      };
    } catch {
      /* notifications unavailable */
    }
  });
}
