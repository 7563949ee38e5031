import type { PageRoute } from "../../lib/features";

const placeholder = () => import("./RoutePlaceholder");

/** A page of the finance system, embedded (or an empty page saying it is not configured). */
const embedded = (path: string, titleKey: string, embedPath: string, withUser = false): PageRoute => ({
  path,
  page: placeholder,
  handle: { titleKey, embed: { path: embedPath, withUser } },
});

/** The embedded finance pages, and the not-found page. */
export const placeholderRoutes: PageRoute[] = [
  embedded("/Pix", "pages.pix", "listarPix", true),
  embedded("/Ajustes", "pages.ajustes", "ajustes"),
  embedded("/AudioBot", "pages.audioBot", "audioBot"),
  embedded("/Rotinas", "pages.rotinas", "listarRotinas"),
  embedded("/RotinasLog", "pages.rotinasLog", "listarRotinasLog"),
  embedded("/ConfigDisparos", "pages.configDisparos", "configDisparos"),
  { path: "*", page: () => import("./NotFoundPage") },
];
