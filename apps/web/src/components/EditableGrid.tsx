import AddIcon from "@mui/icons-material/Add";
import CheckIcon from "@mui/icons-material/Check";
import CloseIcon from "@mui/icons-material/Close";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import EditOutlinedIcon from "@mui/icons-material/EditOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { Theme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastSuccess } from "../lib/toast";
import { type DeleteMutation, useDeleteConfirm } from "./use-delete-confirm";

/** One column: a field of the row's draft. */
export interface EditableColumn<D> {
  key: keyof D & string;
  label: string;
  multiline?: boolean;
  /** the file address column: a preview and an upload button while editing */
  file?: boolean;
  width?: number | string;
}

/** The save mutation: a new row without `id`, an edited one with it. */
interface SaveMutation<D> {
  isPending: boolean;
  mutateAsync: (v: { id?: number; body: D }) => Promise<unknown>;
}

/**
 * A grid whose rows turn into fields in place ('Editar'), with a new row on top, a confirmed delete
 * (the delete confirmation of the card grids) and, on phones, each row as a block of labelled fields.
 * A `file` column shows `file.view` and, while editing, `file.edit` (a preview and an upload button).
 */
export function EditableGrid<E extends { id: number }, D extends Record<string, string>>({
  testId,
  title,
  rows,
  loading,
  columns,
  draftOf,
  empty,
  valid,
  save,
  remove,
  file,
  labels,
}: {
  /** `<testId>-table`, `-row`, `-new-row`, `-empty`. */
  testId: string;
  title: string;
  rows: E[] | undefined;
  loading: boolean;
  columns: EditableColumn<D>[];
  draftOf: (e?: E) => D;
  empty: string;
  valid: (d: D) => boolean;
  save: SaveMutation<D>;
  remove: DeleteMutation;
  file?: { view: (url: string) => ReactNode; edit: (url: string, set: (url: string) => void) => ReactNode };
  labels: { add: string; saved: string; confirmDelete: string; deleted: string };
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ id?: number; draft: D } | null>(null);
  const del = useDeleteConfirm<E>({ remove, title: () => labels.confirmDelete, deleted: labels.deleted });
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));

  const commit = async () => {
    if (!editing) return;
    try {
      await save.mutateAsync({ id: editing.id, body: editing.draft });
      setEditing(null);
      toastSuccess(labels.saved);
    } catch (err) {
      // §8: audio and chat save failures are only logged
      console.error(err);
    }
  };

  const field = (c: EditableColumn<D>) => {
    if (!editing) return null;
    const set = (v: string) => setEditing({ ...editing, draft: { ...editing.draft, [c.key]: v } });
    if (c.file && file) return file.edit(editing.draft[c.key], set);
    return (
      <TextField
        size="small"
        fullWidth
        multiline={c.multiline}
        maxRows={6}
        value={editing.draft[c.key]}
        onChange={(e) => set(e.target.value)}
        slotProps={{ htmlInput: { "aria-label": c.label } }}
      />
    );
  };

  const actions = (children: ReactNode) => (
    <TableCell align="right" sx={{ whiteSpace: "nowrap", width: 96 }}>
      {children}
    </TableCell>
  );
  const editButtons = (
    <>
      <Tooltip title={t("common.save")}>
        <span>
          <IconButton
            color="primary"
            aria-label={t("common.save")}
            onClick={() => void commit()}
            disabled={save.isPending || !editing || !valid(editing.draft)}
          >
            <CheckIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t("common.cancel")}>
        <IconButton aria-label={t("common.cancel")} onClick={() => setEditing(null)}>
          <CloseIcon />
        </IconButton>
      </Tooltip>
    </>
  );
  const editActions = actions(editButtons);
  const rowButtons = (row: E, draft: D) => (
    <>
      <Tooltip title={t("common.edit")}>
        <IconButton aria-label={t("common.edit")} onClick={() => setEditing({ id: row.id, draft })}>
          <EditOutlinedIcon />
        </IconButton>
      </Tooltip>
      <Tooltip title={t("common.delete")}>
        <IconButton aria-label={t("common.delete")} color="error" onClick={() => del.ask(row)}>
          <DeleteOutlineIcon />
        </IconButton>
      </Tooltip>
    </>
  );

  return (
    <Paper variant="outlined" sx={{ overflow: "hidden" }} data-testid={`${testId}-table`}>
      <Box sx={{ display: "flex", alignItems: "center", px: 2, py: 1.5, gap: 1 }}>
        <Typography component="h2" variant="h6" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <Button
          variant="contained"
          size="small"
          startIcon={<AddIcon />}
          onClick={() => setEditing({ draft: draftOf() })}
          disabled={editing?.id === undefined && !!editing}
        >
          {labels.add}
        </Button>
      </Box>
      {narrow ? (
        <Box sx={{ borderTop: 1, borderColor: "divider" }}>
          {editing && editing.id === undefined && (
            <Box data-testid={`${testId}-new-row`} sx={{ p: 2, display: "grid", gap: 1.5, borderBottom: 1, borderColor: "divider" }}>
              {columns.map((c) => (
                <Box key={c.key}>{field(c)}</Box>
              ))}
              <Box sx={{ textAlign: "right" }}>{editButtons}</Box>
            </Box>
          )}
          {loading && (
            <Box sx={{ p: 2 }}>
              <Skeleton />
              <Skeleton />
            </Box>
          )}
          {!loading && rows?.length === 0 && !editing && (
            <Typography color="text.secondary" sx={{ p: 3, textAlign: "center" }} data-testid={`${testId}-empty`}>
              {empty}
            </Typography>
          )}
          {rows?.map((row) => {
            const draft = draftOf(row);
            const isEditing = editing?.id === row.id;
            return (
              <Box
                key={row.id}
                data-testid={`${testId}-row`}
                data-entry-id={row.id}
                sx={{ p: 2, display: "grid", gap: 1, borderBottom: 1, borderColor: "divider", "&:last-of-type": { borderBottom: 0 } }}
              >
                {columns.map((c) => (
                  <Box key={c.key} sx={{ minWidth: 0 }}>
                    <Typography variant="caption" color="text.secondary" sx={{ display: "block", fontWeight: 600 }}>
                      {c.label}
                    </Typography>
                    {isEditing ? (
                      field(c)
                    ) : c.file && file ? (
                      file.view(draft[c.key])
                    ) : (
                      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                        {draft[c.key]}
                      </Typography>
                    )}
                  </Box>
                ))}
                <Box sx={{ textAlign: "right" }}>{isEditing ? editButtons : rowButtons(row, draft)}</Box>
              </Box>
            );
          })}
        </Box>
      ) : (
        <TableContainer sx={{ overflowX: "auto" }}>
          <Table size="small" sx={{ minWidth: 560 }}>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c.key} sx={{ width: c.width, fontWeight: 600 }}>
                    {c.label}
                  </TableCell>
                ))}
                <TableCell align="right" sx={{ width: 96 }} />
              </TableRow>
            </TableHead>
            <TableBody>
              {editing && editing.id === undefined && (
                <TableRow data-testid={`${testId}-new-row`}>
                  {columns.map((c) => (
                    <TableCell key={c.key}>{field(c)}</TableCell>
                  ))}
                  {editActions}
                </TableRow>
              )}
              {loading &&
                [0, 1, 2].map((i) => (
                  <TableRow key={i}>
                    {columns.map((c) => (
                      <TableCell key={c.key}>
                        <Skeleton />
                      </TableCell>
                    ))}
                    <TableCell />
                  </TableRow>
                ))}
              {!loading && rows?.length === 0 && !editing && (
                <TableRow>
                  <TableCell colSpan={columns.length + 1}>
                    <Typography color="text.secondary" sx={{ py: 3, textAlign: "center" }} data-testid={`${testId}-empty`}>
                      {empty}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
              {rows?.map((row) => {
                const draft = draftOf(row);
                const isEditing = editing?.id === row.id;
                return (
                  <TableRow key={row.id} hover data-testid={`${testId}-row`} data-entry-id={row.id}>
                    {columns.map((c) => (
                      <TableCell key={c.key} sx={{ verticalAlign: "middle", wordBreak: "break-word" }}>
                        {isEditing ? (
                          field(c)
                        ) : c.file && file ? (
                          file.view(draft[c.key])
                        ) : (
                          <Typography
                            variant="body2"
                            sx={{
                              whiteSpace: "pre-wrap",
                              display: "-webkit-box",
                              WebkitLineClamp: 3,
                              WebkitBoxOrient: "vertical",
                              overflow: "hidden",
                            }}
                          >
                            {draft[c.key]}
                          </Typography>
                        )}
                      </TableCell>
                    ))}
                    {isEditing ? editActions : actions(rowButtons(row, draft))}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {del.dialog}
    </Paper>
  );
}
