// A small fake of Meta's Graph API for the e2e specs (the server suite has the full one in
// apps/server/test/fakes/graph.ts): the phone number, messages (statuses sent → delivered → read
// posted to the webhook, signed with the app secret, until they get 200), templates, and a
// customer who writes through the webhook.
import { createHmac, randomBytes } from "node:crypto";
import { createServer } from "node:http";

export async function startGraphFake({
  port,
  webhookUrl,
  phoneNumberId = "109876543210",
  wabaId = "209876543210",
  token = "EAAG-e2e",
  appSecret = "e2e-app-secret",
}) {
  const accepted = [];
  const templates = [
    {
      name: "retomar_contato",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Olá {{1}}, podemos continuar seu atendimento?" }],
    },
    {
      name: "segunda_via",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "{{1}}, sua fatura de {{2}} está disponível." }],
    },
  ];
  const metadata = { display_phone_number: "5511988887777", phone_number_id: phoneNumberId };
  async function deliver(value) {
    const raw = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: wabaId, changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata, ...value } }] }],
    });
    const sig = `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
    for (let i = 0; i < 100; i++) {
      const res = await fetch(webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": sig },
        body: raw,
      }).catch(() => undefined);
      if (res?.status === 200) return;
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error("webhook never answered 200");
  }
  const status = (a, s) =>
    deliver({
      statuses: [
        { id: a.wamid, status: s, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: a.to, biz_opaque_callback_data: a.ourId },
      ],
    });
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const send = (code, body) => res.writeHead(code, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: { code: 190, message: "Invalid OAuth access token" } });
    const path = new URL(req.url, "http://x").pathname.replace(/^\/v\d+\.\d+/, "");
    if (req.method === "GET" && path === `/${phoneNumberId}`)
      return send(200, {
        id: phoneNumberId,
        display_phone_number: "+55 11 98888-7777",
        verified_name: "Provedor",
        messaging_limit_tier: "TIER_1K",
      });
    if (req.method === "GET" && path === `/${wabaId}/message_templates`) return send(200, { data: templates, paging: {} });
    if (req.method === "POST" && path === `/${phoneNumberId}/messages`) {
      const b = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (b.status === "read") return send(200, { success: true });
      const a = { wamid: `wamid.${randomBytes(10).toString("hex")}`, to: b.to, type: b.type, body: b, ourId: b.biz_opaque_callback_data };
      accepted.push(a);
      send(200, { messaging_product: "whatsapp", contacts: [{ input: b.to, wa_id: b.to }], messages: [{ id: a.wamid }] });
      setTimeout(() => void status(a, "sent").then(() => status(a, "delivered")), 100);
      return;
    }
    send(400, { error: { code: 100, message: `unsupported ${req.method} ${path}` } });
  });
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return {
    phoneNumberId,
    wabaId,
    token,
    appSecret,
    accepted,
    /** A customer writes (through the webhook); answers the wamid. */
    async customerSends(from, name, text) {
      const id = `wamid.IN${randomBytes(8).toString("hex")}`;
      await deliver({
        contacts: [{ profile: { name }, wa_id: from }],
        messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: text } }],
      });
      return id;
    },
    read: (a) => status(a, "read"),
    close: () => new Promise((r) => server.close(r)),
  };
}
