/**
 * The one way a phone number is shown in the product: `+55 (11) 98765-4321` (a Brazilian mobile),
 * `+55 (11) 3456-7890` (a landline); other countries as `+<digits>`. Numbers are stored as digits
 * with the country code (the server adds Brazil's 55). Empty in, empty out.
 */
export function formatPhone(raw: string | null | undefined): string {
  const d = (raw ?? "").replace(/\D/g, "");
  if (!d) return "";
  const m = /^55(\d{2})(\d{4,5})(\d{4})$/.exec(d);
  if (m) return `+55 (${m[1]}) ${m[2]}-${m[3]}`;
  return `+${d}`;
}
