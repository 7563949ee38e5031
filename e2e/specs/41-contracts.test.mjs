// Issue 20: a contract sent from a chat, signed by the customer on the public page at phone size (the link read
// from the simulator's chat), 'Assinado' arriving live in the agent's dialog and the confirmation on the phone;
// screenshots of the dialog, the /contratos screen and the signing page, light and dark.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { api, BASE, launch, newPage, settled, shot, signIn, toast, unique } from "../lib/browser.mjs";
import { agentPage, createAgent, pairedSimulator, randomColor, ticketRow, until } from "../lib/conversation.mjs";

let browser;
let admin;
let sim;
let ana;
let simName;
const customer = `55119${String(Date.now()).slice(-8)}`;
const customerName = unique("Maria Contrato");
const fullName = "Maria Aparecida da Silva";
const SETTINGS = {
  enableContract: "enabled",
  contrato_nome1: "Carlos Testemunha",
  contrato_cpf1: "111.444.777-35",
  contrato_nome2: "Dora Testemunha",
  contrato_cpf2: "123.456.789-09",
  msgEnvioContrato: "Olá {nome}! Assine o seu contrato aqui: {link}",
  msgConfirmacaoAssinatura: "Recebemos a sua assinatura, {nome}. Obrigado!",
};

before(async () => {
  browser = await launch();
  admin = await api();
  for (const [k, value] of Object.entries(SETTINGS)) await admin.put(`/settings/${k}`, { value });
  const queue = await admin.post("/queue", { name: unique("Comercial"), color: randomColor(), greetingMessage: "" });
  ana = await createAgent(admin, { name: unique("Ana"), queueIds: [queue.id] });
  simName = unique("Fibra Contratos");
  sim = await pairedSimulator(admin, { name: simName, queueIds: [queue.id] });
});
after(async () => {
  await admin?.put("/settings/darkMode", { value: "disabled" }).catch(() => undefined);
  await admin?.put("/settings/enableContract", { value: "disabled" }).catch(() => undefined);
  await browser?.close();
});

const linkOf = (text) => /https?:\/\/\S+\/assinar\/[A-Za-z0-9_-]+/.exec(text)?.[0];

test("a contract sent from the chat is signed by the customer on the phone and shows Assinado live", async () => {
  await sim.say(customer, "Quero assinar o plano", customerName);
  const page = await agentPage(browser, ana);
  await page.getByTestId("tab-waiting").click();
  const row = ticketRow(page, customerName);
  await row.getByRole("button", { name: "Atender" }).click();
  await page.waitForURL(/\/tickets\/\d+$/);

  // the Contrato action opens the ticket's dialog; 'Novo Contrato' with the customer's data
  await page.getByTestId("action-contract").click();
  const dialog = page.getByTestId("contracts-dialog");
  await dialog.getByText("Nenhum contrato encontrado.").waitFor();
  await dialog.getByTestId("contract-new").click();
  await page.getByTestId("contract-nome").fill(fullName);
  await page.getByTestId("contract-email").fill("maria@cliente.test");
  await page.getByTestId("contract-cpf").fill("529.982.247-26");
  await page.getByTestId("contract-send").click();
  await page.getByText("CPF inválido").waitFor();
  await page.getByTestId("contract-cpf").fill("529.982.247-25");
  await page.getByTestId("contract-plano").fill("Fibra 500 Mega");
  await page.getByTestId("contract-valor").fill("R$ 99,90");
  // the preview fills what is known: the customer's number and the witnesses of the settings
  const preview = page.getByTestId("contract-preview");
  await preview.getByText("Carlos Testemunha — CPF 111.444.777-35").waitFor();
  await preview.getByText(new RegExp(`telefone ${customer}`)).waitFor();
  assert.doesNotMatch(await preview.textContent(), /\{[a-z0-9_]+\}/, "no variable left unfilled in the preview");
  await shot(page, "contracts-new-preview-1366");
  await page.getByTestId("contract-send").click();
  await toast(page, "Contrato enviado! O link de assinatura vai para o WhatsApp do cliente.").waitFor();
  const contractRow = dialog.locator('[data-testid^="contract-row-"]').first();
  await contractRow.getByText(fullName).waitFor();
  // the API keeps the spec's 'Nao assinado'; the chip reads it in Portuguese
  assert.equal(await contractRow.getByTestId("contract-status").textContent(), "Não assinado");
  await dialog.getByText("Exibindo 1 de 1 registro(s)").waitFor();
  // the PDF is generated on the job runner; the row gets its file and send date live
  await until(async () => !(await contractRow.getByText("Gerando…").count()), "the generated PDF");
  await settled(page);
  await shot(page, "contracts-dialog-1366");

  // the customer's phone in the simulator shows the link; the customer opens it on a phone, signed out
  const admPage = await newPage(browser, { width: 1366, height: 800 });
  await signIn(admPage, undefined, { live: false });
  await admPage.goto("/simulator");
  await admPage.locator("#connections").getByText(simName).first().click();
  await admPage.locator("#chats").getByText(customer.slice(-4)).first().click();
  const linkMsg = admPage
    .locator("#messages")
    .getByText(/\/assinar\//)
    .first();
  await linkMsg.waitFor();
  const link = linkOf(await linkMsg.textContent());
  assert.ok(link, "a signing link in the customer's chat");
  assert.ok(link.startsWith(BASE), `the link points at the app: ${link}`);

  const phone = await browser.newContext({
    viewport: { width: 375, height: 760 },
    isMobile: true,
    hasTouch: true,
    locale: "pt-BR",
    colorScheme: "light",
  });
  const customerPage = await phone.newPage();
  customerPage.setDefaultTimeout(15_000);
  await customerPage.goto(link);
  await customerPage.getByText("Confirme os 5 primeiros dígitos do seu CPF").waitFor();
  // nothing of the document before the check: its CPF is printed in it
  assert.equal(await customerPage.locator("#doc").isVisible(), false);
  assert.doesNotMatch(await customerPage.locator("main").textContent(), /529\.982|52998/);
  await customerPage.getByText("5 tentativa(s) restante(s).").waitFor();
  await shot(customerPage, "contracts-signing-375-light");
  // a wrong CPF is refused; one count of the tries left
  await customerPage.locator("#cpf5").fill("11111");
  await customerPage.getByRole("button", { name: "Confirmar" }).click();
  await customerPage.getByText(/Os dígitos não conferem/).waitFor();
  await customerPage.getByText("4 tentativa(s) restante(s).").waitFor();
  assert.equal(await customerPage.getByText(/tentativa\(s\)/).count(), 1, "one count of tries left");
  assert.equal(await customerPage.getByText(/Restam/).count(), 0);
  // the right digits show the document: the text version is open on a phone, with the customer and the witnesses
  await customerPage.locator("#cpf5").fill("52998");
  await customerPage.getByRole("button", { name: "Confirmar" }).click();
  await customerPage
    .locator(".texto")
    .getByText(/Carlos Testemunha/)
    .waitFor();
  await until(async () => /^[a-f0-9]{64}$/.test((await customerPage.locator("#sha").textContent()) ?? ""), "the document's hash");
  await shot(customerPage, "contracts-signing-checked-375-light");
  await customerPage.locator("#nome").fill(fullName);
  await customerPage.getByLabel(/Li e aceito/).check();
  await customerPage.getByRole("button", { name: "Assinar contrato" }).click();
  await customerPage.getByText("Contrato assinado com sucesso!").waitFor();
  // no SMTP server is set in this suite: no e-mail is promised
  assert.doesNotMatch((await customerPage.locator("#done").textContent()) ?? "", /e-mail/);
  await customerPage
    .locator("#done")
    .getByText(/Baixe a sua cópia assinada/)
    .waitFor();
  await shot(customerPage, "contracts-signed-375-light");

  // 'Assinado' arrives in the agent's open dialog without a reload
  await until(async () => (await contractRow.getByTestId("contract-status").textContent()) === "Assinado", "Assinado in the dialog");
  await shot(page, "contracts-dialog-signed-1366");
  // the confirmation reaches the customer's phone in the simulator
  await admPage.locator("#messages").getByText(`Recebemos a sua assinatura, ${fullName}. Obrigado!`).waitFor();
  await shot(admPage, "contracts-simulator-1366");
  // the link signs once; afterwards it gives the signed copy behind the same check
  const again = await customerPage.goto(link);
  assert.equal(again?.status(), 200);
  await customerPage.getByText(/Contrato assinado em/).waitFor();
  assert.equal(await customerPage.getByRole("button", { name: "Assinar contrato" }).count(), 0);
  // the PDF's address is a page in Portuguese, never the API's JSON
  const direct = await customerPage.goto(`${link}/documento.pdf`);
  assert.equal(direct?.status(), 403);
  await customerPage.getByRole("heading", { name: "Confirme o seu CPF" }).waitFor();
  assert.doesNotMatch(await customerPage.locator("main").textContent(), /ERR_|"error"/);
  await shot(customerPage, "contracts-cpf-first-375-light");
  await phone.close();
  await admPage.context().close();
  await page.context().close();
});

test("the /contratos screen and the signing page in light and dark, 1366 and 375 px", async () => {
  const tickets = await admin.get(`/tickets?showAll=true&searchParam=${customer}`);
  const ticketId = tickets.tickets[0].id;
  for (const theme of ["light", "dark"]) {
    await admin.put("/settings/darkMode", { value: theme === "dark" ? "enabled" : "disabled" });
    // a fresh contract whose page is shown at both sizes
    const links = async () => (await sim.phone(customer)).filter((m) => m.fromMe && linkOf(m.body)).map((m) => linkOf(m.body));
    const seen = new Set(await links());
    const created = await admin.post("/api/contratos", {
      ticketId,
      nome: fullName,
      email: "maria@cliente.test",
      cpf: "52998224725",
      campos: { plano: "Fibra 1 Giga" },
    });
    const link = await until(async () => (await links()).find((l) => !seen.has(l)), "a new link");
    await until(async () => (await admin.get(`/api/contratos/${created.id}`)).caminho, "the generated PDF");
    for (const width of [1366, 375]) {
      const ctx = await browser.newContext({ viewport: { width, height: width === 375 ? 760 : 850 }, locale: "pt-BR", colorScheme: theme });
      const p = await ctx.newPage();
      await p.goto(link);
      await p.getByRole("heading", { name: "Assinatura eletrônica" }).waitFor();
      await settled(p);
      await shot(p, `contracts-signing-${width}-${theme}`);
      // after the CPF check: the document framed (wide) or as text (phone), and the acceptance
      await p.locator("#cpf5").fill("52998");
      await p.getByRole("button", { name: "Confirmar" }).click();
      await p.locator("#nome").waitFor();
      await until(async () => /^[a-f0-9]{64}$/.test((await p.locator("#sha").textContent()) ?? ""), "the document's hash");
      await settled(p);
      await shot(p, `contracts-signing-doc-${width}-${theme}`);
      await ctx.close();
      const screen = await newPage(browser, { width, height: width === 375 ? 760 : 850 });
      await signIn(screen, undefined, { live: false });
      // the route ignores case: /Contratos is the same screen
      await screen.goto(width === 375 ? "/Contratos" : "/contratos");
      await screen.getByTestId("contracts-showing").waitFor();
      await screen.getByTestId("contracts-table").getByText(fullName).first().waitFor();
      await settled(screen);
      await shot(screen, `contracts-screen-${width}-${theme}`);
      if (width === 1366) {
        await screen.getByTestId("contracts-templates-tab").click();
        await screen
          .getByTestId("template-preview")
          .getByText(/Maria da Silva/)
          .first()
          .waitFor();
        await settled(screen);
        await shot(screen, `contracts-templates-${width}-${theme}`);
      }
      await screen.context().close();
      // the agent's dialog from the chat
      const agent = await agentPage(browser, ana, { width, height: width === 375 ? 760 : 850 });
      await agent.goto(`/tickets/${ticketId}`);
      await agent.getByTestId("action-contract").click();
      const dialog = agent.getByTestId("contracts-dialog");
      await dialog.getByText("Exibindo").waitFor();
      await dialog.locator('[data-testid^="contract-row-"]').first().waitFor();
      await settled(agent);
      await shot(agent, `contracts-dialog-${width}-${theme}`);
      if (width === 1366) {
        // 'Visualizar Documento': the PDF framed from a blob: URL fetched with the session
        await dialog.getByRole("button", { name: "Visualizar Documento" }).first().click();
        await agent.getByTestId("contract-frame").waitFor();
        const src = await agent.getByTestId("contract-frame").getAttribute("src");
        assert.ok(src?.startsWith("blob:"), `framed from a blob: URL (${src})`);
        await shot(agent, `contracts-viewer-${width}-${theme}`);
      }
      await agent.context().close();
    }
  }
});
