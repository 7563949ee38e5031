// Disparos: 20 rows from a CSV through 'Novo disparo', the cards and the progress moving as they go
// out, 'Cancelar pendentes', 'Reiniciar com erro', 'Excluir todos' (each behind Voltar / confirm),
// and screenshots in both themes at 1366 and 375 px.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, launch, newPage, settled, shot, signIn, toast, unique } from "../lib/browser.mjs";
import { until } from "../lib/conversation.mjs";

let browser;
let admin;
let conn;

before(async () => {
  browser = await launch();
  admin = await api();
});
after(async () => {
  await admin.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  await admin.delete("/disparos").catch(() => undefined);
  if (conn) await admin.delete(`/whatsapp/${conn.id}`).catch(() => undefined);
  await browser?.close();
});

const count = async (page, status) =>
  Number(
    (await page.locator(`[data-testid=disparo-card][data-status="${status}"] [data-testid=disparo-card-count]`).textContent()).replace(
      /\D/g,
      "",
    ),
  );
// a card that never gets there says what it shows and what the server counts (a stuck row, or a stale screen)
const cardIs = async (page, status, pred) => {
  try {
    return await until(async () => pred(await count(page, status)), `the '${status}' card`, 60_000);
  } catch (err) {
    const server = await admin.get("/disparos/stats").catch((e) => e.message);
    throw new Error(`${err.message}; the card shows ${await count(page, status)}, the server counts ${JSON.stringify(server)}`);
  }
};

async function confirmBulk(page, label) {
  await page.getByRole("button", { name: label, exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Voltar" }).waitFor();
  await dialog.getByRole("button", { name: label, exact: true }).click();
  await dialog.waitFor({ state: "detached" });
}

test("20 disparos from a CSV: cards and progress move, cancel pending, restart errors, delete all", async () => {
  // a paired simulator connection, sending without the number's pace; the disparo pace short but visible
  const name = unique("Campanha");
  conn = await admin.post("/simulator/api/connections", { name });
  await admin.put(`/whatsapp/${conn.id}`, { sendIntervalMs: 0, sendJitterMs: 0, sendBurst: 20, warmupEnabled: false });
  const shown = (await admin.get("/simulator/api/connections")).find((c) => c.id === conn.id);
  await admin.post(`/simulator/api/connections/${conn.id}/scan`, { qrcode: shown.qrcode });
  await admin.put(`/disparos/connections/${conn.id}`, { intervalMinMs: 700, intervalMaxMs: 900, pauseEvery: 0, paused: true });
  await admin.delete("/disparos");
  const numbers = Array.from(
    { length: 20 },
    (_, i) => `5511966${String(Date.now() % 10000).padStart(4, "0")}${String(i).padStart(2, "0")}`,
  );
  // two customers whose phones refuse messages: their rows fail
  for (const n of [numbers[1], numbers[3]]) await admin.put(`/simulator/api/connections/${conn.id}/chats/${n}/refused`, { refused: true });

  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  await page.goto("/Disparos");
  await page.getByRole("heading", { name: "Disparos", exact: true }).waitFor();
  await page.getByText("Nenhum registro encontrado.").waitFor();

  // Novo disparo: the message with its two variants, then the CSV (its `nome` column is {nome}) previewed row by row
  await page.getByRole("button", { name: "Novo disparo" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo disparo" });
  await dialog.getByLabel("Conexão").click();
  await page.getByRole("option", { name, exact: true }).click();
  await dialog
    .getByTestId("disparo-message")
    .fill("{Olá|Oi|Bom dia} {primeiro_nome}! {Sua fatura|Seu boleto} de novembro {já está disponível|chegou}.");
  const variants = dialog.getByTestId("disparo-preview").locator("p");
  await until(async () => (await variants.count()) === 2, "two variants in the preview");
  const [a, b] = await variants.allInnerTexts();
  assert.notEqual(a, b);
  assert.match(a, /^(Olá|Oi|Bom dia) Maria! (Sua fatura|Seu boleto) de novembro (já está disponível|chegou)\.$/);
  const names = ["João Pereira", "Ana Lima", "Carla Souza"];
  const csv = `numero,nome\n${numbers.map((n, i) => `${n},${names[i % 3]}`).join("\n")}\n`;
  await dialog.getByTestId("disparo-csv-input").setInputFiles({ name: "clientes.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  const csvPreview = dialog.getByTestId("disparo-csv-preview");
  await csvPreview.getByText("Prévia: as 3 primeiras de 20 linhas").waitFor();
  const previewRows = await csvPreview.getByTestId("disparo-csv-preview-row").allInnerTexts();
  assert.equal(previewRows.length, 3);
  for (const [i, row] of previewRows.entries()) {
    assert.ok(row.startsWith(`${numbers[i]} · ${names[i]}`), row);
    assert.match(row, new RegExp(`(Olá|Oi|Bom dia) ${names[i].split(" ")[0]}! (Sua fatura|Seu boleto) de novembro`));
  }
  // the e2e machine's clock may be outside business hours: send at any hour
  await dialog.getByLabel(/horário comercial/).uncheck();
  await settled(page);
  await shot(page, "disparos-new-1366-light");
  await dialog.getByRole("button", { name: "Enviar para a fila" }).click();
  await toast(page, "20 disparo(s) na fila.").waitFor();
  await cardIs(page, "a enviar", (n) => n === 20);
  assert.equal(await page.getByTestId("disparo-row").count(), 20);

  // Retomar: the rows go out, the cards and the progress follow
  const panel = page.getByTestId("disparo-connection").filter({ hasText: name });
  await panel.getByRole("button", { name: "Retomar" }).click();
  await panel.getByRole("button", { name: "Pausar" }).waitFor();
  const progress = page.getByTestId("disparos-progress");
  await cardIs(page, "enviado", (n) => n >= 3);
  await cardIs(page, "com erro", (n) => n === 2);
  await until(async () => /de 20 concluídos/.test(await progress.textContent()), "the progress");
  const before = await count(page, "enviado");
  await cardIs(page, "enviado", (n) => n > before);
  await page.getByTestId("disparos-finish").waitFor();

  // the four pills in the spec's colours show on the page
  const errorPill = page.locator('[data-testid=disparo-status][data-status="com erro"]').first();
  assert.equal(await errorPill.evaluate((el) => getComputedStyle(el).backgroundColor), "rgb(211, 47, 47)");

  // Cancelar pendentes
  await confirmBulk(page, "Cancelar pendentes");
  await cardIs(page, "a enviar", (n) => n === 0);
  const cancelled = await count(page, "cancelado");
  assert.ok(cancelled > 0, "some rows were still waiting");
  await page.locator('[data-testid=disparo-status][data-status="cancelado"]').first().waitFor();

  // screenshots with every status on the page
  await until(async () => (await page.locator('[data-testid=disparo-status][data-status="enviando"]').count()) === 0, "nothing in flight");
  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    for (const width of [1366, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.reload();
      await page.getByRole("heading", { name: "Disparos", exact: true }).waitFor();
      await page.getByTestId("disparo-row").first().waitFor();
      await settled(page);
      await shot(page, `disparos-${width}-${theme}`);
      if (width === 375) {
        await page.getByTestId("disparo-row").first().scrollIntoViewIfNeeded();
        await shot(page, `disparos-table-${width}-${theme}`);
      }
    }
  }
  await admin.put("/settings/darkMode", { value: "disabled" });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.reload();
  await page.getByTestId("disparo-row").first().waitFor();

  // Reiniciar com erro: the two numbers receive again, their rows go back to the queue and out
  for (const n of [numbers[1], numbers[3]]) await admin.put(`/simulator/api/connections/${conn.id}/chats/${n}/refused`, { refused: false });
  await confirmBulk(page, "Reiniciar com erro");
  await cardIs(page, "com erro", (n) => n === 0);
  await cardIs(page, "enviado", (n) => n === 20 - cancelled);
  const phone = await admin.get(`/simulator/api/connections/${conn.id}/chats/${numbers[1]}`);
  assert.equal(phone.messages.filter((m) => m.fromMe).length, 1);
  // the CSV's name reached the customer
  assert.match(phone.messages.find((m) => m.fromMe).body, /^(Olá|Oi|Bom dia) Ana! /);

  // the status filter and the search on the loaded page
  await page.getByLabel("Status").click();
  await page.getByRole("option", { name: "Cancelado" }).click();
  await page.getByRole("button", { name: "Aplicar" }).click();
  await until(async () => (await page.getByTestId("disparo-row").count()) === cancelled, "the cancelled rows only");
  await page.getByRole("button", { name: "Limpar" }).click();
  await until(async () => (await page.getByTestId("disparo-row").count()) === 20, "every row again");
  await page.getByLabel("Buscar").fill(numbers[7]);
  await until(async () => (await page.getByTestId("disparo-row").count()) === 1, "the searched row");
  await page.getByLabel("Buscar").fill("");

  // Excluir todos
  await confirmBulk(page, "Excluir todos");
  await page.getByText("Nenhum registro encontrado.").waitFor();
  for (const s of ["cancelado", "a enviar", "com erro", "enviado"]) assert.equal(await count(page, s), 0);
  await page.context().close();
});

test("a bad CSV line is named, nothing is queued until the good rows are confirmed", async () => {
  const page = await newPage(browser, { width: 375, height: 812 });
  await signIn(page);
  await page.goto("/Disparos");
  await page.getByRole("button", { name: "Novo disparo" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo disparo" });
  await dialog.getByLabel("Conexão").click();
  await page.getByRole("option").first().click();
  await dialog
    .getByTestId("disparo-csv-input")
    .setInputFiles({ name: "x.csv", mimeType: "text/csv", buffer: Buffer.from("5511988887777,oi\nabc,oi\n") });
  await dialog.getByTestId("disparo-message").fill("Olá {nome}");
  await dialog.getByRole("button", { name: "Enviar para a fila" }).click();
  // the server lists every bad row (line and reason) and queues nothing; the good ones wait for a confirmation
  const invalid = dialog.getByTestId("disparo-invalid");
  await invalid.filter({ hasText: "Linha 2, número: número inválido" }).waitFor();
  await dialog.getByTestId("disparo-send-valid").waitFor();
  await settled(page);
  await shot(page, "disparos-new-error-375-light");
  assert.equal((await admin.get("/disparos/stats"))["a enviar"], 0);
  await page.context().close();
});

test("Novo disparo with a CSV's first rows previewed, light and dark, 1366 and 375 px", async () => {
  const page = await newPage(browser, { width: 1366, height: 900 });
  await signIn(page);
  const csv = [
    "telefone;nome;mensagem;url",
    "5511987650001;João Pereira;;",
    "5511987650002;Ana Lima;Oi {primeiro_nome}, seu técnico chega amanhã às 9h.;",
    "5511987650003;;;https://exemplo.com.br/fatura",
    "5511987650004;Carla Souza;;",
  ].join("\n");
  try {
    for (const theme of ["light", "dark"]) {
      await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
      for (const width of [1366, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        await page.goto("/Disparos");
        await page.getByRole("button", { name: "Novo disparo" }).click();
        const dialog = page.getByRole("dialog", { name: "Novo disparo" });
        await dialog.getByTestId("disparo-message").fill("{Olá|Oi} {primeiro_nome}, sua fatura de novembro chegou.");
        await dialog
          .getByTestId("disparo-csv-input")
          .setInputFiles({ name: "clientes.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
        const preview = dialog.getByTestId("disparo-csv-preview");
        await preview.getByText("Prévia: as 3 primeiras de 4 linhas").waitFor();
        const rows = await preview.getByTestId("disparo-csv-preview-row").allInnerTexts();
        assert.match(rows[0], /João Pereira\n+(Olá|Oi) João, sua fatura de novembro chegou\./);
        assert.match(rows[1], /Oi Ana, seu técnico chega amanhã às 9h\./);
        // no name: no gap; the link shown under the text
        assert.match(rows[2], /(Olá|Oi), sua fatura de novembro chegou\.\n+https:\/\/exemplo\.com\.br\/fatura/);
        await preview.scrollIntoViewIfNeeded();
        await settled(page);
        await shot(page, `disparos-new-preview-${width}-${theme}`);
        await dialog.getByRole("button", { name: "Cancelar" }).click();
        await dialog.waitFor({ state: "detached" });
      }
    }
  } finally {
    await admin.put("/settings/darkMode", { value: "disabled" });
    await page.context().close();
  }
});
