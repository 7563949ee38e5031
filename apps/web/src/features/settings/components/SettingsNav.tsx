import Box from "@mui/material/Box";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { type MouseEvent, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router-dom";

/** Where a section counts as the one being read: its top within this many px of the scroll box's top. */
const READ_LINE_PX = 96;
/** After a jump the scroll moves on its own for a moment: the list follows the jump, not the motion. */
const JUMP_SETTLE_MS = 1000;

/**
 * The section being read, from the tops of the sections (px from the scroll box's top, in order):
 * the last one whose top has passed the reading line; the last of all at the bottom of the box.
 */
export function sectionInView(tops: number[], atBottom: boolean): number {
  if (tops.length === 0) return -1;
  if (atBottom) return tops.length - 1;
  let current = 0;
  tops.forEach((top, i) => {
    if (top <= READ_LINE_PX) current = i;
  });
  return current;
}

/** The section a URL's hash names ("#mail"), if it is one of `ids`. */
export function sectionOfHash(hash: string, ids: readonly string[]): string | undefined {
  const id = decodeURIComponent(hash.replace(/^#/, ""));
  return ids.includes(id) ? id : undefined;
}

/**
 * The settings screen's sections in reach: `jump` scrolls one to the top of `scroller` and puts its
 * id in the URL's hash; `active` follows the scroll. A hash in the address opens its section.
 */
export function useSectionNav(ids: readonly string[], scroller: RefObject<HTMLElement | null>, ready: boolean) {
  const location = useLocation();
  const navigate = useNavigate();
  const [active, setActive] = useState(() => sectionOfHash(location.hash, ids) ?? ids[0]);
  const jumpedAt = useRef(0);

  const scrollTo = useCallback((id: string, behavior: ScrollBehavior) => {
    const el = document.getElementById(id);
    if (!el) return;
    jumpedAt.current = Date.now();
    setActive(id);
    el.scrollIntoView({ behavior, block: "start" });
  }, []);

  const jump = (id: string) => {
    navigate({ hash: id }, { replace: true });
    scrollTo(id, "smooth");
  };

  // the address's section, once the sections are on screen (past the gate)
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the sections appear
  useEffect(() => {
    if (!ready) return;
    const id = sectionOfHash(location.hash, ids);
    if (id) scrollTo(id, "auto");
  }, [ready]);

  useEffect(() => {
    const box = scroller.current;
    if (!ready || !box) return;
    const onScroll = () => {
      if (Date.now() - jumpedAt.current < JUMP_SETTLE_MS) return;
      const top = box.getBoundingClientRect().top;
      const tops = ids.map((id) => (document.getElementById(id)?.getBoundingClientRect().top ?? Number.POSITIVE_INFINITY) - top);
      const i = sectionInView(tops, box.scrollTop + box.clientHeight >= box.scrollHeight - 2);
      if (i >= 0) setActive(ids[i]);
    };
    box.addEventListener("scroll", onScroll, { passive: true });
    return () => box.removeEventListener("scroll", onScroll);
  }, [ready, ids, scroller]);

  return { active, jump };
}

/**
 * The list of sections: a column beside them from `lg` up (it stays in view while they scroll), a
 * row of scrollable tabs above them on smaller screens (it stays at the top).
 */
export function SettingsNav({
  ids,
  active,
  onJump,
  side,
}: {
  ids: readonly string[];
  active: string;
  onJump: (id: string) => void;
  side: boolean;
}) {
  const { t } = useTranslation();
  const label = (id: string) => t(`settings.sections.${id}`);
  if (side)
    return (
      <Box
        component="nav"
        aria-label={t("menu.settings")}
        sx={{ position: "sticky", top: 0, alignSelf: "start" }}
        data-testid="settings-nav"
      >
        <List dense disablePadding>
          {ids.map((id) => (
            <ListItemButton
              key={id}
              component="a"
              href={`#${id}`}
              selected={id === active}
              aria-current={id === active ? "location" : undefined}
              onClick={(e: MouseEvent) => {
                e.preventDefault();
                onJump(id);
              }}
              sx={{ borderRadius: 1, mb: 0.25 }}
              data-testid={`settings-nav-${id}`}
            >
              <ListItemText primary={label(id)} sx={{ my: 0.25 }} />
            </ListItemButton>
          ))}
        </List>
      </Box>
    );
  return (
    <Box
      component="nav"
      aria-label={t("menu.settings")}
      sx={{
        position: "sticky",
        top: 0,
        zIndex: 2,
        bgcolor: "background.default",
        mx: { xs: -1, sm: -3 },
        mb: 1.5,
        borderBottom: 1,
        borderColor: "divider",
      }}
      data-testid="settings-nav"
    >
      <Tabs value={active} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile aria-label={t("menu.settings")}>
        {ids.map((id) => (
          <Tab
            key={id}
            value={id}
            label={label(id)}
            href={`#${id}`}
            component="a"
            // also the current one: back to its top
            onClick={(e: MouseEvent) => {
              e.preventDefault();
              onJump(id);
            }}
            sx={{ textTransform: "none", minWidth: 0, px: 1.5 }}
            data-testid={`settings-nav-${id}`}
          />
        ))}
      </Tabs>
    </Box>
  );
}
