import { ApiError, http } from "../api/http";

/**
 * Downloads a file from a route that wants the session's bearer token (an <a href> cannot send
 * it): fetched with the token (refreshed once on 401/403), then saved under `fileName`.
 */
export async function downloadWithSession(path: string, fileName: string): Promise<void> {
  const get = () => fetch(path, { headers: { authorization: `Bearer ${http.getToken() ?? ""}` } });
  let res = await get();
  if (res.status === 403 || res.status === 401) {
    await http.refresh();
    res = await get();
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(res.status, body.error ?? "ERR_INTERNAL");
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
