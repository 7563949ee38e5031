import type { AudioEntry, Message, MessagesAnswer, QuickAnswersAnswer } from "@balcao/contract";
import { type InfiniteData, infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { http } from "../../../api/http";
import { nextPage } from "../../../lib/entity-api";
import { sharePages } from "../../../lib/live-merge";
import { randomKey } from "../../../lib/random-key";
import { useSocket, useSocketEvent } from "../../../lib/socket";

type Pages = InfiniteData<MessagesAnswer, unknown>;
export const messagesKey = (ticketId: number) => ["messages", ticketId] as const;

/** A ticket's messages, newest page first (each page in time order); the call marks them read. */
export const messagesQuery = (ticketId: number) =>
  infiniteQueryOptions({
    queryKey: messagesKey(ticketId),
    queryFn: ({ pageParam, signal }) => http.get<MessagesAnswer>(`/messages/${ticketId}`, { pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    staleTime: 0,
    meta: { silent: true },
    retry: false,
    // a read that lands after a message's event keeps that message (and the newest copy of each)
    structuralSharing: sharePages,
  });

export function useMessages(ticketId: number) {
  return useInfiniteQuery(messagesQuery(ticketId));
}

/** Oldest first, once each: what the chat shows (page 1 holds the newest messages, each page in time order). */
export function chronological(d: Pages | undefined): Message[] {
  const seen = new Set<number>();
  const out: Message[] = [];
  const pages = d?.pages ?? [];
  for (let i = pages.length - 1; i >= 0; i--)
    for (const m of pages[i].messages) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
  return out;
}

function upsert(d: Pages | undefined, m: Message): Pages | undefined {
  if (!d) return d;
  const exists = d.pages.some((p) => p.messages.some((x) => x.id === m.id));
  if (exists) return { ...d, pages: d.pages.map((p) => ({ ...p, messages: p.messages.map((x) => (x.id === m.id ? m : x)) })) };
  const [first, ...rest] = d.pages;
  if (!first) return d;
  return { ...d, pages: [{ ...first, messages: [...first.messages, m], count: first.count + 1 }, ...rest] };
}

/** Joins the ticket's chat box and applies its message events to the cached pages. */
export function useChatLive(ticketId: number, onTyping?: (typing: boolean, name?: string) => void) {
  const qc = useQueryClient();
  const socket = useSocket();
  useEffect(() => {
    if (!socket) return;
    const join = () => socket.emit("joinChatBox", ticketId);
    if (socket.connected) join();
    socket.on("connect", join);
    return () => {
      socket.off("connect", join);
      socket.emit("leaveChatBox", ticketId);
    };
  }, [socket, ticketId]);
  const reading = useReadWhileOpen(ticketId);
  useSocketEvent("appMessage", (p) => {
    if (p.message.ticketId !== ticketId) return;
    qc.setQueryData<Pages>(messagesKey(ticketId), (d) => upsert(d, p.message));
    if (p.action === "create" && !p.message.fromMe) reading.arrived();
  });
  useSocketEvent("typing", (p) => {
    if (p.ticketId === ticketId) onTyping?.(p.typing, p.name);
  });
}

/** Whether the agent can see the page: the tab is shown (another tab or a minimized window is not reading). */
export function pageVisible(doc: Pick<Document, "visibilityState"> | undefined = typeof document === "undefined" ? undefined : document) {
  return doc?.visibilityState === "visible";
}

/**
 * The customer's messages that arrive in the open chat are read while the tab is visible; those
 * that arrived while it was hidden are read when it shows again. One call at a time per chat.
 */
function useReadWhileOpen(ticketId: number) {
  const pending = useRef(false);
  const inFlight = useRef(false);
  const flush = useCallback(() => {
    if (!pending.current || inFlight.current || !pageVisible()) return;
    pending.current = false;
    inFlight.current = true;
    http
      .post(`/messages/${ticketId}/read`)
      .catch(() => undefined)
      .finally(() => {
        inFlight.current = false;
        flush();
      });
  }, [ticketId]);
  useEffect(() => {
    pending.current = false;
    const onShow = () => flush();
    document.addEventListener("visibilitychange", onShow);
    return () => document.removeEventListener("visibilitychange", onShow);
  }, [flush]);
  return {
    arrived: () => {
      pending.current = true;
      flush();
    },
  };
}

export function addSent(qc: ReturnType<typeof useQueryClient>, ticketId: number, sent: Message[]) {
  for (const m of sent) qc.setQueryData<Pages>(messagesKey(ticketId), (d) => upsert(d, m));
}

/** Sends what the agent composed; each composed message has its own Idempotency-Key, kept across retries. */
export function useSendMessage(ticketId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { body: string; quotedId?: number; files?: File[]; internal?: boolean }) => {
      const key = randomKey();
      if (input.files?.length) {
        const form = new FormData();
        form.append("body", input.body);
        if (input.quotedId) form.append("quotedMsg", JSON.stringify({ id: input.quotedId }));
        for (const f of input.files) form.append("medias", f, f.name);
        return http.idempotent<Message[]>(`/messages/${ticketId}`, { form }, key);
      }
      return http.idempotent<Message[]>(
        `/messages/${ticketId}`,
        {
          body: {
            body: input.body,
            ...(input.quotedId && { quotedMsg: { id: input.quotedId } }),
            ...(input.internal && { internal: true }),
          },
        },
        key,
      );
    },
    onSuccess: (sent) => addSent(qc, ticketId, sent),
  });
}

/** 'Reenviar': a message that could not be sent is queued again. */
export function useResendMessage(ticketId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<Message>(`/messages/${id}/resend`),
    onSuccess: (m) => addSent(qc, ticketId, [m]),
  });
}

export function useDeleteMessage(ticketId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<Message>(`/messages/${id}`),
    onSuccess: (m) => addSent(qc, ticketId, [m]),
  });
}

export function sendTyping(ticketId: number, typing: boolean) {
  void http.post(typing ? `/digitando/${ticketId}` : `/digitando/stop/${ticketId}`).catch(() => undefined);
}

/** Quick answers for the `/` lookup. */
/** The audio entries (/audiobot) an agent can send as voice notes, read when the list is opened. */
export function useAudioEntriesList(enabled: boolean) {
  return useQuery({
    queryKey: ["audiobot"],
    queryFn: ({ signal }) => http.get<AudioEntry[]>("/audiobot", undefined, signal),
    enabled,
    staleTime: 10_000,
  });
}

/** An audio entry's file, as a file to send (the server sends audio as a voice note). */
export async function audioEntryFile(entry: AudioEntry): Promise<File> {
  const res = await fetch(entry.url, { credentials: "include" });
  if (!res.ok) throw new Error(`audio ${res.status}`);
  const blob = await res.blob();
  return new File([blob], `${entry.titulo}.ogg`, { type: blob.type || "audio/ogg" });
}

export function useQuickAnswerLookup(term: string | null) {
  return useQuery({
    queryKey: ["chat", "quickAnswers", term],
    queryFn: ({ signal }) => http.get<QuickAnswersAnswer>("/quickAnswers", { searchParam: term ?? "" }, signal),
    enabled: term !== null,
    staleTime: 10_000,
    meta: { silent: true },
  });
}
