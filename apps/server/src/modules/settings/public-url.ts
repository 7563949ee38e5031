import {
  CLOUD_WEBHOOK_PATH,
  normalizePublicUrl,
  PUBLIC_URL_WARNING_TEXTS,
  type PublicUrlAnswer,
  publicUrlWarnings,
} from "@balcao/contract";
import type { AppContext } from "../../context.js";
import { getSettingValue } from "../../db/settings.js";

/** Where a request came to, as Fastify sees it (with TRUST_PROXY, the proxy's X-Forwarded-Proto and -Host). */
export interface RequestOrigin {
  protocol: string;
  host: string;
}

/**
 * The address every link and URL shown or sent starts with: the setting publicUrl (Configurações)
 * when filled, else PUBLIC_URL, else the address the request came to ("" without a request).
 */
export async function publicBaseUrl(
  ctx: Pick<AppContext, "db" | "config">,
  req?: RequestOrigin,
): Promise<{ url: string; source: PublicUrlAnswer["source"] }> {
  const setting = normalizePublicUrl(await getSettingValue(ctx.db, "publicUrl"));
  if (setting) return { url: setting, source: "setting" };
  if (ctx.config.PUBLIC_URL) return { url: ctx.config.PUBLIC_URL, source: "env" };
  return { url: req ? `${req.protocol}://${req.host}` : "", source: "request" };
}

/** GET /settings/public-url: the address in use, the webhook URL built on it and what to fix (Portuguese). */
export async function publicUrlInfo(ctx: Pick<AppContext, "db" | "config">, req?: RequestOrigin): Promise<PublicUrlAnswer> {
  const { url, source } = await publicBaseUrl(ctx, req);
  const warnings = url ? publicUrlWarnings(url) : [];
  return {
    url,
    source,
    webhookUrl: `${url}${CLOUD_WEBHOOK_PATH}`,
    warnings,
    warning: warnings.length ? warnings.map((w) => PUBLIC_URL_WARNING_TEXTS[w]).join(" ") : null,
  };
}
