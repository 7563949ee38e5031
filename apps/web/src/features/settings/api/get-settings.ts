import { SETTING_DEFAULTS, type SettingKey } from "@balcao/contract";
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, http } from "../../../api/http";
import { useDisposable } from "../../../lib/hooks";
import { useSocketEvent } from "../../../lib/socket";
import { trailingReads } from "../../../lib/trailing-reads";
import { useAuth } from "../../auth";
import { gateHeaders, lockSettings } from "./settings-token";

/** key → value; a write-only secret also has `has:<key>` = "true" | "false". */
export type SettingsMap = Record<string, string>;
interface SettingRow {
  key: string;
  value: string;
  hasValue?: boolean;
}

const entriesOf = (r: SettingRow): [string, string][] =>
  r.hasValue === undefined
    ? [[r.key, r.value]]
    : [
        [r.key, r.value],
        [`has:${r.key}`, String(r.hasValue)],
      ];

export const settingsQuery = queryOptions({
  queryKey: ["settings"],
  queryFn: async (): Promise<SettingsMap> => {
    const rows = await http.get<SettingRow[]>("/settings");
    return Object.fromEntries(rows.flatMap(entriesOf));
  },
  staleTime: Number.POSITIVE_INFINITY,
});

/** A saved row merged into the cached map (nothing before the first read: that read brings it). */
function mergeRow(queryClient: QueryClient, row: SettingRow) {
  queryClient.setQueryData<SettingsMap>(settingsQuery.queryKey, (old) => (old ? { ...old, ...Object.fromEntries(entriesOf(row)) } : old));
}

/**
 * The `settings` event merged into the cached map. The rows carry no version: a read under way
 * when the event lands (the sign-in's first read, which the event cannot change yet) may answer
 * the value from before it, and the map is never read again in the session (staleTime Infinity):
 * that read is made again once it has landed (`trailingReads`).
 */
export function settingsLive(queryClient: QueryClient, everyMs = 500) {
  const reads = trailingReads(queryClient, everyMs);
  return {
    setting(row: SettingRow) {
      mergeRow(queryClient, row);
      reads.askIfBeingRead(settingsQuery.queryKey);
    },
    dispose: reads.dispose,
  };
}

/** Keeps the settings map live for the signed-in session (mounted once, by the app's shell). */
export function useSettingsLive() {
  const queryClient = useQueryClient();
  const live = useDisposable(() => settingsLive(queryClient));
  useSocketEvent("settings", (p) => live.setting(p.setting));
}

/** The settings map (defaults until loaded or when loading fails), kept live by `useSettingsLive`. */
export function useSettings() {
  const { user } = useAuth();
  const q = useQuery({ ...settingsQuery, enabled: Boolean(user) });
  const get = (key: SettingKey) => q.data?.[key] || SETTING_DEFAULTS[key];
  /** The stored value as is ("" stays ""), for the settings screen's fields. */
  const raw = (key: string) => q.data?.[key] ?? "";
  /** For write-only secrets: whether one is stored. */
  const has = (key: SettingKey) => q.data?.[`has:${key}`] === "true";
  return { ...q, get, raw, has };
}

/** A settings call refused because the gate closed (token expired, password changed): back to 'Acesso restrito'. */
export function closeGateOn(err: unknown) {
  if (err instanceof ApiError && err.code === "ERR_SETTINGS_LOCKED") lockSettings();
}

/** Merges a saved row into the cached map (the socket event does the same for other browsers). */
export function useMergeSetting() {
  const queryClient = useQueryClient();
  return (row: SettingRow) => mergeRow(queryClient, row);
}

export function useUpdateSetting() {
  const merge = useMergeSetting();
  return useMutation({
    /** `secret`: an address's saved secret typed again with it (a saved one goes only to its saved address) */
    mutationFn: ({ key, value, secret }: { key: SettingKey; value: string; secret?: string }) =>
      http.request<SettingRow>("PUT", `/settings/${key}`, { body: { value, ...(secret && { secret }) }, headers: gateHeaders() }),
    onSuccess: merge,
    onError: closeGateOn,
  });
}
