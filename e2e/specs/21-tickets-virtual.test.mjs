// 10 000 tickets in the list: only the rows in view are in the DOM. The list answers are served by page.route
// (building 10 000 real conversations would take minutes); everything else hits the real server.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch, newPage, signIn } from "../lib/browser.mjs";

const TOTAL = 10_000;
const PAGE = 2_000;
let browser;
before(async () => {
  browser = await launch();
});
after(() => browser?.close());

function fakeTicket(i, now) {
  const at = new Date(now - i * 60_000).toISOString();
  return {
    id: 900_000 + i,
    status: "open",
    lastMessage: `Mensagem número ${i} com um texto bem comprido para cortar`,
    unreadMessages: i % 7,
    isGroup: false,
    transf: false,
    contactId: 900_000 + i,
    contact: {
      id: 900_000 + i,
      name: `Cliente ${i}`,
      number: `5511900${String(i).padStart(6, "0")}`,
      lid: null,
      email: "",
      profilePicUrl: "",
      isGroup: false,
    },
    userId: 1,
    user: { id: 1, name: "Admin" },
    queueId: null,
    queue: null,
    whatsappId: null,
    whatsapp: null,
    tags: [],
    createdAt: at,
    updatedAt: at,
  };
}

test("with 10 000 tickets only the visible rows are rendered", async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  const now = Date.now();
  await page.route(
    (url) => url.pathname === "/tickets" && url.search.length > 0,
    async (route) => {
      if (route.request().resourceType() !== "fetch") return route.continue();
      const q = new URL(route.request().url()).searchParams;
      if (q.get("status") !== "open" || q.get("withUnreadMessages") === "true") {
        return route.fulfill({ json: { tickets: [], count: 0, hasMore: false } });
      }
      const n = Number(q.get("pageNumber") ?? "1");
      const start = (n - 1) * PAGE;
      const tickets = Array.from({ length: Math.max(0, Math.min(PAGE, TOTAL - start)) }, (_, k) => fakeTicket(start + k, now));
      return route.fulfill({ json: { tickets, count: TOTAL, hasMore: start + PAGE < TOTAL } });
    },
  );
  await signIn(page);
  const list = page.getByTestId("tickets-scroll").filter({ visible: true });
  await list.getByTestId("ticket-item").first().waitFor();
  await page.getByTestId("tab-assigned").getByText("9999+").waitFor();

  // scroll to the end, again on every frame as the next pages arrive, until the last of the 10 000 rows shows
  const lastId = 900_000 + TOTAL - 1;
  await page.waitForFunction(
    ([el, id]) => {
      el.scrollTop = el.scrollHeight;
      return el.querySelector(`[data-ticket-id="${id}"]`) !== null;
    },
    [await list.elementHandle(), lastId],
    { polling: "raf", timeout: 30_000 },
  );
  const rendered = await list.getByTestId("ticket-item").count();
  assert.ok(rendered > 0 && rendered < 40, `only the visible rows are in the DOM (got ${rendered})`);

  // the middle: the rows around there, and nothing from the top (once the rows of the end have left)
  await list.evaluate((el) => {
    el.scrollTop = el.scrollHeight / 2;
  });
  await list.locator(`[data-ticket-id="${lastId}"]`).waitFor({ state: "detached" });
  const ids = await list
    .getByTestId("ticket-item")
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-ticket-id")) - 900_000));
  assert.ok(ids.length < 40, `still few rows (${ids.length})`);
  assert.ok(
    ids.every((i) => i > 4000 && i < 6000),
    `rows from the middle only: ${ids.slice(0, 5).join(",")}…`,
  );
  const previews = await list.getByTestId("ticket-preview").allTextContents();
  assert.ok(
    previews.every((p) => p.length <= 21),
    "previews are cut to 20 characters",
  );
  await page.context().close();
});
