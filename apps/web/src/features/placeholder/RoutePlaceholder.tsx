import { useMatches } from "react-router-dom";
import { ComingSoonPage } from "./ComingSoonPage";
import { EmbeddedPage } from "./EmbeddedPage";

interface PlaceholderHandle {
  titleKey: string;
  embed?: { path: string; withUser: boolean };
}

/** The page of a route whose screen comes later (or lives in an embedded finance page): read from the route's handle. */
export default function RoutePlaceholder() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as PlaceholderHandle | undefined;
  const titleKey = handle?.titleKey ?? "common.notFound";
  if (handle?.embed) return <EmbeddedPage titleKey={titleKey} path={handle.embed.path} withUser={handle.embed.withUser} />;
  return <ComingSoonPage titleKey={titleKey} />;
}
