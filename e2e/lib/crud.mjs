// Shared helpers of the card-grid specs (contacts, users, queues, quick answers): one signed-in admin page
// on the screen for the whole file, the dialog and card locators, and the save / edit / delete flows.
import { after, before } from "node:test";
import { launch, newPage, signIn, toast } from "./browser.mjs";

/**
 * Registers the file's before/after hooks: a browser, an admin signed in, `path` open once its `heading` shows.
 * `screen.page` is the page (set once `before` has run). With `clock`, the page's timers run on Playwright's
 * clock (flowing as usual until a test pauses it), so a test can run a debounce out without waiting.
 */
export function crudScreen({ path, heading, cardTestId, clock = false }) {
  const s = { browser: undefined, page: undefined };
  before(async () => {
    s.browser = await launch();
    s.page = await newPage(s.browser);
    if (clock) await s.page.clock.install();
    await signIn(s.page);
    await s.page.goto(path);
    await s.page.getByRole("heading", { name: heading }).waitFor();
  });
  after(() => s.browser?.close());

  const dialog = () => s.page.getByRole("dialog");
  const card = (name) => s.page.getByTestId(cardTestId).filter({ hasText: name });
  return {
    get page() {
      return s.page;
    },
    dialog,
    /** The card showing `name`. */
    card,
    /** Clicks the header's add button. */
    add: (label) => s.page.getByRole("button", { name: label }).click(),
    /** Clicks "Salvar" in the dialog; with `toastText`, waits for that toast. */
    async save(toastText) {
      await dialog().getByRole("button", { name: "Salvar" }).click();
      if (toastText) await toast(s.page, toastText).waitFor();
    },
    /** Clicks the card's "Editar <name>" button. */
    edit: (name) =>
      card(name)
        .getByRole("button", { name: `Editar ${name}` })
        .click(),
    /** Deletes through the card's "Excluir <name>" button and the confirmation; the toast shows and the card goes. */
    async remove(name, toastText) {
      await card(name)
        .getByRole("button", { name: `Excluir ${name}` })
        .click();
      await dialog().getByRole("button", { name: "Excluir" }).click();
      await toast(s.page, toastText).waitFor();
      await card(name).waitFor({ state: "detached" });
    },
  };
}
