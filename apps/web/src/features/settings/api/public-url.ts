import { CLOUD_WEBHOOK_PATH, type PublicUrlAnswer, type PublicUrlWarning, publicUrlWarnings } from "@balcao/contract";
import { useQuery } from "@tanstack/react-query";
import { http } from "../../../api/http";

/**
 * The address links start with (GET /settings/public-url): the setting publicUrl, else the server's
 * PUBLIC_URL, else — neither set — this page's own origin (what the browser reached, which a proxy
 * may hide from the server).
 */
export function usePublicUrl(enabled = true) {
  const q = useQuery({
    queryKey: ["settings", "public-url"],
    queryFn: ({ signal }) => http.get<PublicUrlAnswer>("/settings/public-url", undefined, signal),
    enabled,
    staleTime: 60_000,
    meta: { silent: true },
  });
  return { ...resolvePublicUrl(q.data, window.location.origin), isLoading: q.isLoading };
}

/** The address in use and its warnings: the server's when configured, else the page's origin. */
export function resolvePublicUrl(
  answer: PublicUrlAnswer | undefined,
  origin: string,
): { url: string; webhookUrl: string; configured: boolean; warnings: PublicUrlWarning[] } {
  const configured = answer !== undefined && answer.source !== "request";
  const url = configured ? answer.url : origin.replace(/\/+$/, "");
  return {
    url,
    webhookUrl: configured ? answer.webhookUrl : `${url}${CLOUD_WEBHOOK_PATH}`,
    configured,
    warnings: publicUrlWarnings(url),
  };
}
