// Issue 12: the web app and the simulator page run under the Content-Security-Policy the server
// sends (no violation reported in the console on any screen), and the message input refuses a file
// over the upload limit before uploading it.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { api, launch, newPage, signIn, toast, unique } from "../lib/browser.mjs";
import { pairedSimulator, randomColor, until } from "../lib/conversation.mjs";

let browser;
let admin;
let ticketId;

before(async () => {
  browser = await launch();
  admin = await api();
  const queue = await admin.post("/queue", { name: unique("Segurança"), color: randomColor(), greetingMessage: "" });
  const sim = await pairedSimulator(admin, { name: unique("CSP"), queueIds: [queue.id] });
  const number = `55319${String(Date.now()).slice(-7)}`;
  await sim.say(number, "Olá, preciso de ajuda", unique("Cliente CSP"));
  const ticket = await until(async () => {
    const { tickets } = await admin.get(`/tickets?showAll=true&searchParam=${number}`);
    return tickets.find((t) => t.contact.number === number);
  }, "the ticket");
  ticketId = ticket.id;
  await admin.put(`/tickets/${ticketId}`, { status: "open" });
});
after(() => browser?.close());

/** A page that reports every CSP violation it meets (the console message and the DOM event both). */
async function watchedPage() {
  const page = await newPage(browser);
  const violations = [];
  page.on("console", (m) => {
    if (/Content Security Policy|CSP violation/i.test(m.text())) violations.push(`${page.url()}: ${m.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return { page, violations };
}

test("every screen of the app runs under its CSP with no violation", async () => {
  const { page, violations } = await watchedPage();
  await signIn(page);
  for (const path of [
    "/tickets",
    `/tickets/${ticketId}`,
    "/contacts",
    "/quickanswers",
    "/users",
    "/queues",
    "/connections",
    "/dashboard",
  ]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("message-input").waitFor();
  await page.getByTestId("message-input").fill("mensagem sob CSP");
  await page.keyboard.press("Enter");
  await page.getByText("mensagem sob CSP").first().waitFor();
  assert.deepEqual(violations, []);
  await page.context().close();
});

test("the simulator page and the API reference run under their CSP with no violation", async () => {
  const { page, violations } = await watchedPage();
  await signIn(page);
  await page.goto("/simulator");
  await page.getByText("Conexões simuladas").waitFor();
  await page.waitForLoadState("networkidle");
  await page.goto("/api-docs");
  await page.locator(".swagger-ui").first().waitFor();
  await page.waitForLoadState("networkidle");
  assert.deepEqual(violations, []);
  await page.context().close();
});

test("a file over the upload limit is refused before it is uploaded", async () => {
  const page = await newPage(browser);
  await signIn(page);
  const uploads = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes(`/messages/${ticketId}`)) uploads.push(r.url());
  });
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId("message-input").waitFor();
  // a file on disk (the browser reads it locally; a 17 MB buffer sent over the protocol is slow)
  const big = join(mkdtempSync(join(tmpdir(), "balcao-e2e-")), "enorme.pdf");
  writeFileSync(big, Buffer.alloc(17 * 1024 * 1024, 0x41));
  await page.getByTestId("file-input").setInputFiles(big, { timeout: 60_000 });
  await toast(page, "O arquivo enorme.pdf passa de 16 MB e não pode ser enviado.").waitFor();
  assert.equal(await page.getByTestId("attachments").count(), 0, "the file was not attached");
  assert.deepEqual(uploads, []);
  await page.context().close();
});
