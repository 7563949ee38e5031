import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell, { type TableCellProps } from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { SxProps, Theme } from "@mui/material/styles";
import type { ReactNode } from "react";

/** One column: its title and how a row shows in it. */
export interface Column<T> {
  key: string;
  label: ReactNode;
  render: (row: T) => ReactNode;
  align?: TableCellProps["align"];
  /** The cell's style (and the title's, unless `headSx`). */
  sx?: SxProps<Theme>;
  /** Shown as the cell's title (the full text of a cut one). */
  title?: (row: T) => string | undefined;
}

/**
 * The pager: `count` is the MUI pager over a known total (rows per page, 'x–y de n', arrows; `page`
 * from 0); `pages` is 'Anterior · Página X de Y · Próxima' with a page-size selector (`page` from 1),
 * for answers that give the number of pages only.
 */
export type Paging =
  | {
      kind: "count";
      count: number;
      page: number;
      perPage: number;
      options: readonly number[];
      onPage: (page: number) => void;
      onPerPage: (perPage: number) => void;
      perPageLabel: string;
      rangeLabel?: (p: { from: number; to: number; count: number }) => string;
    }
  | {
      kind: "pages";
      page: number;
      totalPages: number;
      perPage: number;
      options: readonly number[];
      onPage: (page: number) => void;
      onPerPage: (perPage: number) => void;
      perPageLabel: string;
      previous: string;
      next: string;
      pageOf: string;
      testId?: string;
    };

function Pager({ paging }: { paging: Paging }) {
  if (paging.kind === "count") {
    const lastPage = Math.max(0, Math.ceil(paging.count / paging.perPage) - 1);
    return (
      <TablePagination
        component="div"
        count={paging.count}
        page={Math.min(paging.page, lastPage)}
        onPageChange={(_e, p) => paging.onPage(p)}
        rowsPerPage={paging.perPage}
        rowsPerPageOptions={[...paging.options]}
        onRowsPerPageChange={(e) => paging.onPerPage(Number(e.target.value))}
        labelRowsPerPage={paging.perPageLabel}
        labelDisplayedRows={paging.rangeLabel ?? (({ from, to, count }) => `${from}–${to} / ${count}`)}
      />
    );
  }
  const { page, totalPages } = paging;
  return (
    <Box
      sx={{
        display: "flex",
        flexWrap: "wrap",
        alignItems: "center",
        justifyContent: "flex-end",
        gap: 1.5,
        p: 1.5,
        borderTop: 1,
        borderColor: "divider",
      }}
    >
      <TextField
        select
        size="small"
        label={paging.perPageLabel}
        value={paging.perPage}
        onChange={(e) => paging.onPerPage(Number(e.target.value))}
        sx={{ width: 110 }}
      >
        {paging.options.map((n) => (
          <MenuItem key={n} value={n}>
            {n}
          </MenuItem>
        ))}
      </TextField>
      <Button size="small" disabled={page <= 1} onClick={() => paging.onPage(Math.max(1, page - 1))}>
        {paging.previous}
      </Button>
      <Typography variant="body2" data-testid={paging.testId}>
        {paging.pageOf}
      </Typography>
      <Button size="small" disabled={page >= totalPages} onClick={() => paging.onPage(Math.min(totalPages, page + 1))}>
        {paging.next}
      </Button>
    </Box>
  );
}

interface PagedTableProps<T> {
  /** The table's accessible name. */
  label: string;
  /** The rows of the page shown. */
  rows: T[];
  rowKey: (row: T) => string | number;
  columns: Column<T>[];
  /** Attributes of a row (test ids). */
  rowProps?: (row: T) => Record<string, unknown>;
  /** Below this width the table scrolls sideways. */
  minWidth?: number;
  /** The first load: neither rows nor the empty state yet. */
  loading?: boolean;
  /** A load under way (a bar on top). */
  fetching?: boolean;
  /** What an empty list says. */
  empty: ReactNode;
  emptyTestId?: string;
  tableTestId?: string;
  /** On phones, each row as a card instead of the table (when given). */
  card?: (row: T) => ReactNode;
  phone?: boolean;
  paging: Paging;
  /** Inside an outlined paper (the screens) or bare (inside a dialog's own frame). */
  framed?: boolean;
}

/** The paged list of Disparos, Agendamentos and Contratos: progress, table (or cards on phones), empty state, pager. */
export function PagedTable<T>({
  label,
  rows,
  rowKey,
  columns,
  rowProps,
  minWidth,
  loading,
  fetching,
  empty,
  emptyTestId,
  tableTestId,
  card,
  phone,
  paging,
  framed = true,
}: PagedTableProps<T>) {
  const body =
    loading && !rows.length ? (
      <Box sx={{ height: 160 }} />
    ) : !rows.length ? (
      <Box sx={{ py: 6, px: 2, textAlign: "center" }} data-testid={emptyTestId}>
        {typeof empty === "string" ? <Typography color="text.secondary">{empty}</Typography> : empty}
      </Box>
    ) : card && phone ? (
      <Box sx={{ display: "flex", flexDirection: "column", gap: 1, p: framed ? 1 : 0 }} data-testid={tableTestId}>
        {rows.map((r) => (
          <Box key={rowKey(r)}>{card(r)}</Box>
        ))}
      </Box>
    ) : (
      <TableContainer sx={{ overflowX: "auto" }}>
        <Table size="small" aria-label={label} sx={{ minWidth }} data-testid={tableTestId}>
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c.key} align={c.align} sx={{ fontWeight: 700, whiteSpace: "nowrap" }}>
                  {c.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={rowKey(r)} hover {...rowProps?.(r)}>
                {columns.map((c) => (
                  <TableCell key={c.key} align={c.align} sx={c.sx} title={c.title?.(r)}>
                    {c.render(r)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    );
  const content = (
    <>
      {fetching && <LinearProgress sx={{ height: 2 }} />}
      {body}
      <Pager paging={paging} />
    </>
  );
  return framed ? (
    <Paper variant="outlined" sx={{ overflow: "hidden" }}>
      {content}
    </Paper>
  ) : (
    <Box sx={{ minWidth: 0 }}>{content}</Box>
  );
}
