import type { PageRoute } from "../../lib/features";

const placeholder = () => import("./RoutePlaceholder");

/** A screen of a later issue: an honest empty page titled from the route's handle. */
const comingSoon = (path: string, titleKey: string, admin = false): PageRoute => ({ path, page: placeholder, admin, handle: { titleKey } });

/** A page of the finance system, embedded (or an empty page saying it is not configured). */
const embedded = (path: string, titleKey: string, embedPath: string, withUser = false): PageRoute => ({
  path,
  page: placeholder,
  handle: { titleKey, embed: { path: embedPath, withUser } },
});

/** The spec's routes whose screens come later, the embedded finance pages, and the not-found page. */
export const placeholderRoutes: PageRoute[] = [
  embedded("/Pix", "pages.pix", "listarPix", true),
  embedded("/Ajustes", "pages.ajustes", "ajustes"),
  embedded("/AudioBot", "pages.audioBot", "audioBot"),
  embedded("/Rotinas", "pages.rotinas", "listarRotinas"),
  embedded("/RotinasLog", "pages.rotinasLog", "listarRotinasLog"),
  embedded("/ConfigDisparos", "pages.configDisparos", "configDisparos"),
  comingSoon("/doc", "pages.doc"),
  comingSoon("/dashboard", "menu.dashboard", true),
  comingSoon("/Settings", "menu.settings", true),
  comingSoon("/ChatBot", "menu.chatbot", true),
  comingSoon("/contratos", "menu.contracts", true),
  comingSoon("/schedules", "menu.schedules", true),
  { path: "*", page: () => import("./NotFoundPage") },
];
