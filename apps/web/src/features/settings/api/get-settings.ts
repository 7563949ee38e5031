import { SETTING_DEFAULTS, type SettingKey } from "@balcao/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";
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

/** The settings map (defaults until loaded or when loading fails), kept live by the `settings` socket event. */
export function useSettings() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const q = useQuery({ ...settingsQuery, enabled: Boolean(user) });
  useSocketEvent("settings", (p) => {
    queryClient.setQueryData<SettingsMap>(settingsQuery.queryKey, (old) =>
      old ? { ...old, ...Object.fromEntries(entriesOf(p.setting)) } : old,
    );
  });
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
  return (row: SettingRow) =>
    queryClient.setQueryData<SettingsMap>(settingsQuery.queryKey, (old) => (old ? { ...old, ...Object.fromEntries(entriesOf(row)) } : old));
}

export function useUpdateSetting() {
  const merge = useMergeSetting();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: string }) =>
      http.request<SettingRow>("PUT", `/settings/${key}`, { body: { value }, headers: gateHeaders() }),
    onSuccess: merge,
    onError: closeGateOn,
  });
}
