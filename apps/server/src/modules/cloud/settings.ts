import { CLOUD_WEBHOOK_PATH, type CloudConnectionBody, type CloudSettings, MSG } from "@balcao/contract";
import type { whatsapps } from "../../db/schema/index.js";
import { AppError } from "../../lib/errors.js";

type WhatsappRow = typeof whatsapps.$inferSelect;

/** Where Meta posts (the one webhook of every Cloud connection), relative to this server's address. */
export const WEBHOOK_PATH = CLOUD_WEBHOOK_PATH;

/** A connection's Cloud settings as answered: the secrets only as hasAccessToken / hasAppSecret. */
export function cloudSettingsOf(r: WhatsappRow): CloudSettings | null {
  if (r.type !== "cloud") return null;
  return {
    phoneNumberId: r.cloudPhoneNumberId ?? "",
    businessAccountId: r.cloudBusinessAccountId,
    verifyToken: r.cloudVerifyToken,
    hasAccessToken: r.cloudAccessToken !== "",
    hasAppSecret: r.cloudAppSecret !== "",
    defaultTemplate: r.cloudDefaultTemplate ?? null,
    tierLimit: r.cloudTierLimit ?? null,
    webhookPath: WEBHOOK_PATH,
  };
}

/**
 * The columns a POST/PUT /whatsapp writes for its `cloud` fields. A new Cloud connection needs all
 * of them; on PUT a blank or absent accessToken/appSecret keeps the stored one. A connection that
 * is not "cloud" (or stops being one) keeps no Cloud settings.
 */
export function cloudColumns(
  type: string | undefined,
  cloud: CloudConnectionBody | undefined,
  existing: WhatsappRow | undefined,
): Partial<WhatsappRow> {
  if (type !== "cloud") {
    if (existing?.type === "cloud")
      return { cloudPhoneNumberId: null, cloudBusinessAccountId: "", cloudAccessToken: "", cloudAppSecret: "", cloudVerifyToken: "" };
    return {};
  }
  if (!cloud) {
    if (existing?.type === "cloud") return {};
    throw new AppError("ERR_VALIDATION", 400, { cloud: [MSG.required] });
  }
  const accessToken = cloud.accessToken || existing?.cloudAccessToken || "";
  const appSecret = cloud.appSecret || existing?.cloudAppSecret || "";
  const missing: Record<string, string[]> = {};
  if (!accessToken) missing["cloud.accessToken"] = [MSG.required];
  if (!appSecret) missing["cloud.appSecret"] = [MSG.required];
  if (Object.keys(missing).length) throw new AppError("ERR_VALIDATION", 400, missing);
  return {
    cloudPhoneNumberId: cloud.phoneNumberId,
    cloudBusinessAccountId: cloud.businessAccountId,
    cloudAccessToken: accessToken,
    cloudAppSecret: appSecret,
    cloudVerifyToken: cloud.verifyToken,
    ...(cloud.defaultTemplate !== undefined && { cloudDefaultTemplate: cloud.defaultTemplate }),
  };
}
