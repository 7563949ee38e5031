import { SETTING_DEFAULTS, type SettingKey } from "@balcao/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { http } from "../../../api/http";
import { useSocketEvent } from "../../../lib/socket";
import { useAuth } from "../../auth";

export type SettingsMap = Record<string, string>;
interface SettingRow {
  key: string;
  value: string;
}

export const settingsQuery = queryOptions({
  queryKey: ["settings"],
  queryFn: async (): Promise<SettingsMap> => {
    const rows = await http.get<SettingRow[]>("/settings");
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  },
  staleTime: Number.POSITIVE_INFINITY,
});

/** The settings map (defaults until loaded or when loading fails), kept live by the `settings` socket event. */
export function useSettings() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const q = useQuery({ ...settingsQuery, enabled: Boolean(user) });
  useSocketEvent("settings", (p) => {
    queryClient.setQueryData<SettingsMap>(settingsQuery.queryKey, (old) => (old ? { ...old, [p.setting.key]: p.setting.value } : old));
  });
  const get = (key: SettingKey) => q.data?.[key] || SETTING_DEFAULTS[key];
  return { ...q, get };
}

export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: string }) => http.put<SettingRow>(`/settings/${key}`, { value }),
    onSuccess: (row) => {
      queryClient.setQueryData<SettingsMap>(settingsQuery.queryKey, (old) => (old ? { ...old, [row.key]: row.value } : old));
    },
  });
}
