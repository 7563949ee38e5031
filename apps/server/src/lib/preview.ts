/** An agent's signature on the first line: "*Maria*:" as the web client writes it ("*Maria:*" from older clients). */
const SIGNATURE = /^\*[^*\n]{1,80}(?::\*|\*:)[ \t]*\n?/;

/**
 * The preview a ticket list shows for a message, as a person reads it: the text without the
 * agent's signature markup, else the file name, else the media type; at most 255 characters.
 */
export function previewOf(body: string, mediaType: string, fileName?: string | null): string {
  const text = body.replace(SIGNATURE, "").trim() || fileName || (mediaType === "chat" ? "" : mediaType);
  return text.length > 255 ? text.slice(0, 255) : text;
}
