import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { OutboundContent } from "../src/channels/channel.js";
import { requestBody } from "../src/channels/cloud/outbound.js";

/**
 * The Cloud API's request bodies, built by a pure function from what is sent, against recorded
 * payloads in Meta's documented shapes (../../shared/reference/whatsapp-cloud-api.md §2): what is
 * sent and the body that must go, one file each.
 */
const DIR = join(import.meta.dirname, "fixtures", "cloud-outbound");

type Recorded = {
  sent: { to: string; id: string; context?: string; mediaId?: string; content: OutboundContent & { data?: string } };
  body: Record<string, unknown>;
};

describe("Cloud API request bodies", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".json"));
  it("has recorded payloads for text (quoted, with a link), template, document, audio and location", () => {
    expect(files.sort()).toEqual(["audio.json", "document.json", "location.json", "template.json", "text-quoted.json"]);
  });
  for (const file of files) {
    it(`builds ${file.replace(".json", "")} as recorded`, () => {
      const r = JSON.parse(readFileSync(join(DIR, file), "utf8")) as Recorded;
      const content = (r.sent.content.kind === "media" ? { ...r.sent.content, data: Buffer.alloc(0) } : r.sent.content) as OutboundContent;
      expect(requestBody({ to: r.sent.to, content, context: r.sent.context, id: r.sent.id, mediaId: r.sent.mediaId })).toEqual(r.body);
    });
  }
  it("a caption goes only where WhatsApp shows one, and plain text without a link asks no preview", () => {
    const audio = requestBody({
      to: "5511900000000",
      id: "X",
      mediaId: "9",
      content: { kind: "media", mediaType: "audio", mimetype: "audio/ogg", caption: "oi", data: Buffer.alloc(0) } as OutboundContent,
    });
    expect(JSON.stringify(audio)).not.toContain("caption");
    expect(requestBody({ to: "5511900000000", id: "Y", content: { kind: "text", body: "bom dia" } as OutboundContent })).toMatchObject({
      text: { body: "bom dia", preview_url: false },
    });
  });
});
