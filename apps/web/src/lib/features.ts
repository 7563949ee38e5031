import type { SettingKey } from "@balcao/contract";
import type { ComponentType, ReactNode } from "react";

/**
 * The shapes in which a feature offers its screens and drawer entries to the app (app/router.tsx and
 * app/shell.tsx list them): the shell and the router know these types, never the features.
 */

/** A screen: its URL and its page module, loaded on the first visit (every screen is its own chunk). */
export interface PageRoute {
  path: string;
  page: () => Promise<{ default: ComponentType }>;
  /** Admins only: anyone else is sent to /tickets. */
  admin?: boolean;
  /** Admins and supervisors (with `admin`): anyone else is sent to /tickets. */
  supervisor?: boolean;
  /** What the page reads from its route (useMatches), e.g. a placeholder's title. */
  handle?: unknown;
}

/** An entry of the drawer. */
export interface MenuEntry {
  /** Lower case: the entry is active when the path, lower-cased, is this. */
  to: string;
  labelKey: string;
  icon: ReactNode;
  /** In the administration section, shown to admins only. */
  admin?: boolean;
  /** With `admin`: supervisors see it too. */
  supervisor?: boolean;
  /** Shown only while this setting is "enabled". */
  setting?: SettingKey;
  /** Wraps the icon with the feature's live mark (e.g. the connections alert dot). */
  Badge?: ComponentType<{ children: ReactNode }>;
}
