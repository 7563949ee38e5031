import type { AudioEntry, AudioEntryBody, BotUploadAnswer, ChatEntry, ChatEntryBody } from "@balcao/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, http } from "../../../api/http";
import { shareNewer } from "../../../lib/live-merge";
import { useSocketEvent } from "../../../lib/socket";

const keys = { chat: ["chatbot"] as const, audio: ["audiobot"] as const };

export const chatEntriesQuery = queryOptions({
  queryKey: keys.chat,
  queryFn: ({ signal }) => http.get<ChatEntry[]>("/chatbot", undefined, signal),
  // a read that lands after an update event keeps the newer copy of each entry (updatedAt)
  structuralSharing: shareNewer,
});
export const audioEntriesQuery = queryOptions({
  queryKey: keys.audio,
  queryFn: ({ signal }) => http.get<AudioEntry[]>("/audiobot", undefined, signal),
  // a read that lands after an update event keeps the newer copy of each entry (updatedAt)
  structuralSharing: shareNewer,
});
export const useChatEntries = () => useQuery(chatEntriesQuery);
/** The audio entries (agents send them from the message input). */
export const useAudioEntries = (enabled = true) => useQuery({ ...audioEntriesQuery, enabled });

/** chatbot:update and audiobot:update keep both lists current. */
export function useBotContentLive() {
  const qc = useQueryClient();
  useSocketEvent("chatbot:update", (p) =>
    qc.setQueryData<ChatEntry[]>(keys.chat, (old) => {
      if (!old) return old;
      if (p.action === "delete") return old.filter((e) => e.id !== p.id);
      const rest = old.filter((e) => e.id !== p.chatEntry.id);
      return [...rest, p.chatEntry].sort((a, b) => a.shortcut.localeCompare(b.shortcut) || a.id - b.id);
    }),
  );
  useSocketEvent("audiobot:update", (p) =>
    qc.setQueryData<AudioEntry[]>(keys.audio, (old) => {
      if (!old) return old;
      if (p.action === "delete") return old.filter((e) => e.id !== p.id);
      const rest = old.filter((e) => e.id !== p.audioEntry.id);
      return [...rest, p.audioEntry].sort((a, b) => a.titulo.localeCompare(b.titulo) || a.id - b.id);
    }),
  );
}

type Kind = "chatbot" | "audiobot";
type BodyOf<K extends Kind> = K extends "chatbot" ? ChatEntryBody : AudioEntryBody;
type EntryOf<K extends Kind> = K extends "chatbot" ? ChatEntry : AudioEntry;

/** Create (no id) or update one entry. */
export function useSaveEntry<K extends Kind>(kind: K) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: BodyOf<K> }) =>
      id ? http.put<EntryOf<K>>(`/${kind}/${id}`, body) : http.post<EntryOf<K>>(`/${kind}`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: [kind] }),
    meta: { silent: true },
  });
}

export function useDeleteEntry(kind: Kind) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`/${kind}/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: [kind] }),
  });
}

/**
 * POST /chatbot/upload (field image) or /audiobot/upload (field audio), reporting progress (0–100).
 * XMLHttpRequest: fetch reports no upload progress.
 */
export function uploadWithProgress(kind: Kind, file: File, onProgress: (percent: number) => void): Promise<BotUploadAnswer> {
  const form = new FormData();
  form.append(kind === "chatbot" ? "image" : "audio", file);
  const once = () =>
    new Promise<BotUploadAnswer>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `/${kind}/upload`);
      const token = http.getToken();
      if (token) xhr.setRequestHeader("authorization", `Bearer ${token}`);
      xhr.setRequestHeader("accept", "application/json");
      xhr.withCredentials = true;
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
      };
      xhr.onload = () => {
        let body: { error?: string; ok?: boolean; url?: string } = {};
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // not JSON: the status says enough
        }
        if (xhr.status >= 200 && xhr.status < 300 && body.ok) resolve(body as BotUploadAnswer);
        else reject(new ApiError(xhr.status, body.error));
      };
      xhr.onerror = () => reject(new TypeError("network error"));
      xhr.send(form);
    });
  return once().catch(async (err) => {
    // an expired access token: one refresh, one more try
    if (err instanceof ApiError && err.status === 403 && err.code !== "ERR_NO_PERMISSION") {
      await http.refresh();
      return once();
    }
    throw err;
  });
}
