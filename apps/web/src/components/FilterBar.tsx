import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { type ReactNode, useEffect, useState } from "react";

/** What the lists of Disparos, Agendamentos and Contratos filter by: a status and a date range (yyyy-mm-dd, empty = open). */
export interface RangeFilters {
  status: string;
  from: string;
  to: string;
}

export const NO_RANGE_FILTERS: RangeFilters = { status: "", from: "", to: "" };

interface FilterBarProps<F extends RangeFilters> {
  /** The applied filters: the fields are a draft until 'Aplicar' (or Enter), and follow when these change. */
  value: F;
  onApply: (filters: F) => void;
  /** 'Limpar' (shown only with it): the caller empties what it holds (filters, search, page). */
  onClear?: () => void;
  /** The status choices; 'Todos' (`labels.all`) comes first, as the empty value. */
  statuses: readonly { value: string; label: string }[];
  labels: { status: string; all: string; from: string; to: string; apply: string; clear?: string; search?: string; searchHelp?: string };
  /** A search on the loaded rows, applied as typed (not a draft). */
  search?: { value: string; onChange: (value: string) => void };
  /** Names the fields for tests: `<testId>-status`, `-from`, `-to`, `-search`, `-apply`. */
  testId?: string;
  /** More buttons at the end of the bar. */
  actions?: ReactNode;
}

const id = (testId: string | undefined, part: string) => (testId ? `${testId}-${part}` : undefined);

/**
 * The filter bar of the paged lists: status, De, Até, an optional search, Aplicar (and Enter), an
 * optional Limpar and more buttons. One row on wide screens; on phones the status and the search take
 * a row each and the dates share one.
 */
export function FilterBar<F extends RangeFilters>({
  value,
  onApply,
  onClear,
  statuses,
  labels,
  search,
  testId,
  actions,
}: FilterBarProps<F>) {
  const [draft, setDraft] = useState<F>(value);
  useEffect(() => setDraft(value), [value]);
  const half = { width: { xs: "calc(50% - 6px)", sm: 170 }, flexShrink: 0 };
  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(draft);
      }}
      sx={{ display: "flex", flexWrap: "wrap", gap: 1.5, alignItems: "center" }}
    >
      <TextField
        select
        size="small"
        label={labels.status}
        value={draft.status}
        onChange={(e) => setDraft({ ...draft, status: e.target.value })}
        fullWidth={false}
        sx={{ width: { xs: "100%", sm: 170 }, flexShrink: 0 }}
        slotProps={{
          inputLabel: { shrink: true },
          select: { displayEmpty: true, SelectDisplayProps: { "data-testid": id(testId, "status") } as object },
        }}
      >
        <MenuItem value="">{labels.all}</MenuItem>
        {statuses.map((s) => (
          <MenuItem key={s.value} value={s.value}>
            {s.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        type="date"
        label={labels.from}
        value={draft.from}
        onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        fullWidth={false}
        sx={half}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": id(testId, "from") } }}
      />
      <TextField
        size="small"
        type="date"
        label={labels.to}
        value={draft.to}
        onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        fullWidth={false}
        sx={half}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": id(testId, "to") } }}
      />
      {search && (
        <TextField
          size="small"
          label={labels.search}
          placeholder={labels.searchHelp}
          value={search.value}
          onChange={(e) => search.onChange(e.target.value)}
          fullWidth={false}
          sx={{ flex: { xs: "1 1 100%", sm: "1 1 200px" }, minWidth: 0 }}
          slotProps={{ htmlInput: { "data-testid": id(testId, "search") } }}
        />
      )}
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, alignItems: "center" }}>
        <Button type="submit" variant="contained" data-testid={id(testId, "apply")}>
          {labels.apply}
        </Button>
        {onClear && (
          <Button
            onClick={() => {
              setDraft({ ...draft, status: "", from: "", to: "" });
              onClear();
            }}
          >
            {labels.clear}
          </Button>
        )}
        {actions}
      </Box>
    </Box>
  );
}
