import type { Ticket } from "@balcao/contract";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import List from "@mui/material/List";
import Typography from "@mui/material/Typography";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { flatTickets, useTickets } from "../api/tickets";
import type { TicketFilter } from "../lib";
import { TicketListItem } from "./TicketListItem";

interface Props {
  filter: TicketFilter;
  selectedId?: number;
  onOpen: (t: Ticket) => void;
  onAccept: (t: Ticket) => void;
  acceptingId?: number;
  emptyText: string;
  /** Shown under the empty text (the inbox's first-day hint). */
  emptyHint?: ReactNode;
  hidden?: boolean;
}

const ROW_ESTIMATE = 86;

/** A virtualized, infinitely paged list: only the rows in view (plus a few) are in the DOM. */
export function TicketsList({ filter, selectedId, onOpen, onAccept, acceptingId, emptyText, emptyHint, hidden }: Props) {
  const { t } = useTranslation();
  const q = useTickets(filter);
  const tickets = useMemo(() => flatTickets(q.data), [q.data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 6,
    getItemKey: (i) => tickets[i]?.id ?? i,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;

  useEffect(() => {
    if (lastIndex >= tickets.length - 5 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastIndex, tickets.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <Box
      ref={scrollRef}
      role="region"
      aria-label={t("tickets.list")}
      aria-busy={q.isLoading || isFetchingNextPage}
      data-testid="tickets-scroll"
      sx={{ flex: 1, minHeight: 0, overflowY: "auto", overflowX: "hidden", display: hidden ? "none" : "block" }}
    >
      {q.isLoading ? (
        <Box sx={{ display: "flex", justifyContent: "center", p: 4 }}>
          <CircularProgress size={28} />
        </Box>
      ) : tickets.length === 0 ? (
        <>
          <Typography color="text.secondary" variant="body2" sx={{ p: 3, textAlign: "center" }} data-testid="tickets-empty">
            {q.isError ? t("common.loadError") : emptyText}
          </Typography>
          {!q.isError && emptyHint}
        </>
      ) : (
        <List disablePadding sx={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((row) => {
            const ticket = tickets[row.index];
            return (
              <Box
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                sx={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${row.start}px)` }}
              >
                <TicketListItem
                  ticket={ticket}
                  selected={ticket.id === selectedId}
                  onOpen={onOpen}
                  onAccept={onAccept}
                  accepting={acceptingId === ticket.id}
                />
              </Box>
            );
          })}
        </List>
      )}
      {isFetchingNextPage && (
        <Box sx={{ display: "flex", justifyContent: "center", p: 1 }}>
          <CircularProgress size={20} />
        </Box>
      )}
    </Box>
  );
}
