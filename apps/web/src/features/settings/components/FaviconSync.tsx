import type { ColorsAnswer } from "@balcao/contract";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { http } from "../../../api/http";
import { useAuth } from "../../auth";
import { useSettings } from "../api/get-settings";

/** The browser tab's icon: the favicon setting (live when signed in, from GET /colors before), else the app's own. */
export function FaviconSync() {
  const { user } = useAuth();
  const { raw, data } = useSettings();
  const colors = useQuery({
    queryKey: ["colors"],
    queryFn: () => http.get<ColorsAnswer>("/colors/"),
    staleTime: 5 * 60_000,
    meta: { silent: true },
    retry: false,
    enabled: !user,
  });
  const href = (user && data ? raw("favicon") : colors.data?.favicon) || "";
  useEffect(() => {
    let link = document.querySelector<HTMLLinkElement>("link[rel~='icon']");
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.appendChild(link);
    }
    if (!link.dataset.original) link.dataset.original = link.getAttribute("href") ?? "";
    link.href = href || link.dataset.original;
    if (href) link.removeAttribute("type");
  }, [href]);
  return null;
}
