import "../i18n";
import { SEARCH_DEBOUNCE_MS, type Ticket } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import CheckCircleOutlineIcon from "@mui/icons-material/CheckCircleOutline";
import GroupsIcon from "@mui/icons-material/Groups";
import MoveToInboxIcon from "@mui/icons-material/MoveToInbox";
import SearchIcon from "@mui/icons-material/Search";
import ReportProblemIcon from "@mui/icons-material/ReportProblem";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import TextField from "@mui/material/TextField";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router-dom";
import { SearchField } from "../../../components/SearchField";
import { useDebounced } from "../../../lib/hooks";
import { flattenPages } from "../../../lib/infinite";
import { useAuth } from "../../auth";
import { useIncidents } from "../../incidents";
import { useQueues } from "../../queues";
import { useUsers, visibleUsers } from "../../users";
import { useTickets, useUpdateTicket } from "../api/tickets";
import type { TicketFilter } from "../lib";
import { AcceptTicketDialog, NewTicketDialog } from "./TicketDialogs";
import { FirstDayHint } from "./FirstDayHint";
import { TicketsList } from "./TicketsList";

type TabKey = "open" | "group" | "closed" | "search";
type SubTab = "assigned" | "waiting";

/** Tabs, filters and the lists of the tickets screen. */
export function TicketsManager({ selectedId }: { selectedId?: number }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const showAll = user?.profile === "admin" || user?.profile === "superv";
  const [tab, setTab] = useState<TabKey>("open");
  const [sub, setSub] = useState<SubTab>("assigned");
  const [searchText, setSearchText] = useState("");
  const search = useDebounced(searchText, SEARCH_DEBOUNCE_MS).trim();
  const [agent, setAgent] = useState<number | "">("");
  const queuesQ = useQueues();
  const queueChoices = user?.profile === "admin" ? (queuesQ.data ?? []) : (user?.queues ?? []);
  const [queueIds, setQueueIds] = useState<number[]>(() => user?.queues.map((q) => q.id) ?? []);
  const users = useUsers("");
  const agents = useMemo(() => visibleUsers(flattenPages(users.data, "users")), [users.data]);
  const [newOpen, setNewOpen] = useState(false);
  const [accepting, setAccepting] = useState<Ticket | null>(null);
  const update = useUpdateTicket();

  // a search emptied after typing goes back to the open tab
  const hadSearch = useRef(false);
  useEffect(() => {
    if (search) hadSearch.current = true;
    else if (hadSearch.current) {
      hadSearch.current = false;
      setTab("open");
    }
  }, [search]);

  // the tickets of an incident (the banner's and the Incidentes screen's link): every list filtered by it
  const [params, setParams] = useSearchParams();
  const incidentId = Number(params.get("incident")) || undefined;
  const incidents = useIncidents();
  const incident = incidentId ? incidents.data?.find((i) => i.id === incidentId) : undefined;
  const base = { searchParam: "", showAll, queueIds, userId: agent === "" ? undefined : agent, incidentId };
  const incidentCount = useTickets(base, incidentId !== undefined).data?.pages[0]?.count;
  const filters: Record<"assigned" | "waiting" | "group" | "closed" | "search", TicketFilter> = {
    assigned: { ...base, status: "open", isGroup: false },
    waiting: { ...base, status: "pending", isGroup: false },
    group: { ...base, isGroup: true },
    closed: { ...base, status: "closed" },
    search: { ...base, searchParam: search },
  };
  const assignedCount = useTickets(filters.assigned).data?.pages[0]?.count ?? 0;
  const waitingCount = useTickets(filters.waiting).data?.pages[0]?.count ?? 0;

  const open = (ticket: Ticket) => navigate(`/tickets/${ticket.id}`);
  const accept = (ticket: Ticket) => {
    if (!user) return;
    if (ticket.queueId === null) return setAccepting(ticket);
    update.mutate(
      { id: ticket.id, body: { status: "open", userId: user.id } },
      {
        onSuccess: () => {
          setSub("assigned");
          navigate(`/tickets/${ticket.id}`);
        },
      },
    );
  };
  const listProps = { selectedId, onOpen: open, onAccept: accept, acceptingId: update.isPending ? update.variables?.id : undefined };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <Tabs
        value={tab}
        onChange={(_e, v: TabKey) => setTab(v)}
        variant="fullWidth"
        sx={{
          borderBottom: 1,
          borderColor: "divider",
          minHeight: 56,
          // one line each from tablets up, in the case they are written in; a phone's quarter of 375 px may take two
          "& .MuiTab-root": {
            minHeight: 56,
            minWidth: 0,
            px: 0.5,
            fontSize: 12,
            lineHeight: 1.2,
            textTransform: "none",
            whiteSpace: { xs: "normal", sm: "nowrap" },
          },
        }}
      >
        <Tab value="open" icon={<MoveToInboxIcon fontSize="small" />} label={t("tickets.tabs.open")} data-testid="tab-open" />
        <Tab value="group" icon={<GroupsIcon fontSize="small" />} label={t("tickets.tabs.group")} data-testid="tab-group" />
        <Tab value="closed" icon={<CheckCircleOutlineIcon fontSize="small" />} label={t("tickets.tabs.closed")} data-testid="tab-closed" />
        <Tab value="search" icon={<SearchIcon fontSize="small" />} label={t("tickets.tabs.search")} data-testid="tab-search" />
      </Tabs>

      <Box
        sx={{ display: "flex", gap: 1, p: 1, alignItems: "center", flexWrap: "wrap", borderBottom: 1, borderColor: "divider" }}
        data-testid="ticket-filters"
      >
        {tab === "search" ? (
          <SearchField value={searchText} onChange={setSearchText} placeholder={t("tickets.searchPlaceholder")} />
        ) : (
          <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setNewOpen(true)} sx={{ flexShrink: 0 }}>
            {t("tickets.newTicket")}
          </Button>
        )}
        {showAll && (
          <TextField
            select
            size="small"
            label={t("tickets.agent")}
            value={agent}
            onChange={(e) => setAgent(e.target.value === "" ? "" : Number(e.target.value))}
            sx={{ flex: "1 1 120px", minWidth: 0 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true }, htmlInput: { "data-testid": "agent-filter" } }}
          >
            <MenuItem value="">{t("tickets.allAgents")}</MenuItem>
            {agents.map((u) => (
              <MenuItem key={u.id} value={u.id}>
                {u.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          select
          size="small"
          label={t("tickets.queues")}
          value={queueIds}
          onChange={(e) => {
            const v = e.target.value as unknown as number[] | string;
            setQueueIds(typeof v === "string" ? v.split(",").map(Number) : v);
          }}
          sx={{ flex: "1 1 120px", minWidth: 0 }}
          slotProps={{
            inputLabel: { shrink: true },
            select: {
              multiple: true,
              displayEmpty: true,
              renderValue: (sel) => {
                const ids = sel as number[];
                if (ids.length === 0) return t("tickets.allQueues");
                const names = queueChoices.filter((q) => ids.includes(q.id)).map((q) => q.name);
                // one name, or how many: a list of names would not fit beside the other filters
                return names.length === 1 ? names[0] : t("tickets.queuesSelected", { count: names.length });
              },
            },
          }}
        >
          {queueChoices.map((q) => (
            <MenuItem key={q.id} value={q.id} dense>
              <Checkbox size="small" checked={queueIds.includes(q.id)} sx={{ color: q.color, "&.Mui-checked": { color: q.color } }} />
              <ListItemText primary={q.name} />
            </MenuItem>
          ))}
        </TextField>
      </Box>

      {incidentId !== undefined && (
        <Box sx={{ px: 1, py: 0.75, borderBottom: 1, borderColor: "divider" }}>
          <Chip
            color="warning"
            icon={<ReportProblemIcon />}
            label={t("tickets.incidentFilter", { title: incident?.title ?? `#${incidentId}`, count: incidentCount ?? 0 })}
            onDelete={() => {
              params.delete("incident");
              setParams(params);
            }}
            sx={{ maxWidth: "100%", height: "auto", py: 0.5, "& .MuiChip-label": { whiteSpace: "normal", overflowWrap: "anywhere" } }}
            data-testid="incident-filter"
          />
        </Box>
      )}
      {tab === "open" && (
        <>
          <Tabs
            value={sub}
            onChange={(_e, v: SubTab) => setSub(v)}
            variant="fullWidth"
            sx={{ borderBottom: 1, borderColor: "divider", minHeight: 40, "& .MuiTab-root": { minHeight: 40, py: 0 } }}
          >
            <Tab
              value="assigned"
              data-testid="tab-assigned"
              label={
                <Badge badgeContent={assignedCount} color="primary" max={9999} sx={{ "& .MuiBadge-badge": { right: -14 } }}>
                  {t("tickets.sub.assigned")}
                </Badge>
              }
            />
            <Tab
              value="waiting"
              data-testid="tab-waiting"
              label={
                <Badge badgeContent={waitingCount} color="secondary" max={9999} sx={{ "& .MuiBadge-badge": { right: -14 } }}>
                  {t("tickets.sub.waiting")}
                </Badge>
              }
            />
          </Tabs>
          <TicketsList
            key="assigned"
            filter={filters.assigned}
            hidden={sub !== "assigned"}
            emptyText={t("tickets.empty")}
            emptyHint={sub === "assigned" && <FirstDayHint inboxEmpty={assignedCount + waitingCount === 0} />}
            {...listProps}
          />
          <TicketsList
            key="waiting"
            filter={filters.waiting}
            hidden={sub !== "waiting"}
            emptyText={t("tickets.empty")}
            emptyHint={sub === "waiting" && <FirstDayHint inboxEmpty={assignedCount + waitingCount === 0} />}
            {...listProps}
          />
        </>
      )}
      {tab === "group" && <TicketsList filter={filters.group} emptyText={t("tickets.empty")} {...listProps} />}
      {tab === "closed" && <TicketsList filter={filters.closed} emptyText={t("tickets.empty")} {...listProps} />}
      {tab === "search" &&
        (search ? (
          <TicketsList filter={filters.search} emptyText={t("tickets.emptySearch")} {...listProps} />
        ) : (
          <Box sx={{ p: 3, textAlign: "center", color: "text.secondary", typography: "body2" }}>{t("tickets.typeToSearch")}</Box>
        ))}

      <NewTicketDialog open={newOpen} onClose={() => setNewOpen(false)} />
      <AcceptTicketDialog
        ticket={accepting}
        onClose={() => {
          setAccepting(null);
          setSub("assigned");
        }}
      />
    </Box>
  );
}
