import { type CloudTemplate, templateVariableCount } from "@balcao/contract";
import type { GraphClient } from "./graph.js";

type GraphTemplate = {
  name?: string;
  language?: string;
  status?: string;
  category?: string;
  components?: { type?: string; text?: string }[];
};

/**
 * The approved templates of a business account (`GET /{waba}/message_templates`, every page, 20 at
 * most): their name, language, category and body with its variables. The next page is followed only
 * on the Graph API's own origin (a token never goes elsewhere). Graph's errors are the caller's.
 */
export async function approvedTemplates(graph: GraphClient, businessAccountId: string, graphBase: string): Promise<CloudTemplate[]> {
  const templates: CloudTemplate[] = [];
  let path: string | undefined = `${businessAccountId}/message_templates?fields=name,language,status,category,components&limit=100`;
  for (let page = 0; path && page < 20; page++) {
    const res: { data?: GraphTemplate[]; paging?: { next?: string } } = await graph.call("GET", path);
    for (const t of res.data ?? []) {
      if (t.status !== "APPROVED" || !t.name || !t.language) continue;
      const body = t.components?.find((c) => c.type === "BODY")?.text ?? "";
      templates.push({
        name: t.name,
        language: t.language,
        category: t.category ?? "",
        status: t.status,
        body,
        variables: templateVariableCount(body),
      });
    }
    const next = res.paging?.next;
    path = next && new URL(next).origin === new URL(graphBase).origin ? next : undefined;
  }
  return templates;
}
