import { fileTypeFromBuffer } from "file-type";
import { AppError } from "./errors.js";

/**
 * Decodes an uploaded text file (CSV). Checked by content, not by name: binary files (a
 * spreadsheet, an image) are refused; UTF-8 is expected, Windows-1252 exports are accepted.
 */
export async function decodeTextUpload(buf: Buffer): Promise<string> {
  if (buf.length === 0) throw new AppError("ERR_INVALID_FILE", 400, { file: ["Empty file"] });
  if (buf.includes(0) || (await fileTypeFromBuffer(buf))) throw new AppError("ERR_INVALID_FILE", 400, { file: ["Not a text (CSV) file"] });
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch {
    return new TextDecoder("windows-1252").decode(buf);
  }
}
