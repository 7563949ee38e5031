/**
 * URLs as the log may keep them: the signing link's token (`/assinar/<token>`, the link's only
 * credential) cut to its first 6 characters, and the values of credential-like query parameters
 * (token, access_token, key, password, …) replaced. Anything unparsable is kept up to its query.
 */

const SECRET_PARAMS = new Set([
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "key",
  "apikey",
  "api_key",
  "password",
  "senha",
  "secret",
  "client_secret",
  "x_token",
  "signature",
  "sig",
]);

/** Path segments after these words are credentials. */
const SECRET_PATH = /(\/assinar\/)([^/?#]+)/gi;

export const REDACTED = "<redacted>";

function cutToken(segment: string): string {
  return segment.length > 6 ? `${segment.slice(0, 6)}…${REDACTED}` : REDACTED;
}

/** A path with query (`/x?token=…`) or a full URL, safe to log. */
export function redactUrl(url: string): string {
  if (typeof url !== "string" || url === "") return url;
  const q = url.indexOf("?");
  const hash = url.indexOf("#");
  const pathEnd = q >= 0 ? q : hash >= 0 ? hash : url.length;
  let path = url.slice(0, pathEnd).replace(SECRET_PATH, (_, prefix: string, token: string) => `${prefix}${cutToken(token)}`);
  // userinfo of a full URL (https://user:pass@host)
  path = path.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1<redacted>@");
  if (q < 0) return path;
  const queryEnd = hash > q ? hash : url.length;
  const query = url
    .slice(q + 1, queryEnd)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const rawName = eq >= 0 ? pair.slice(0, eq) : pair;
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, " "));
      } catch {
        name = rawName;
      }
      return SECRET_PARAMS.has(name.toLowerCase().replace(/-/g, "_")) ? `${rawName}=${REDACTED}` : pair;
    })
    .join("&");
  return `${path}?${query}`;
}
