import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ListState } from "../lib/list-state";
import { CardGrid } from "./CardGrid";
import { PageHeader } from "./PageHeader";
import { SearchField } from "./SearchField";
import { type DeleteMutation, useDeleteConfirm } from "./use-delete-confirm";

interface CrudGridPageProps<T extends { id: number }> extends ListState {
  /**
   * The i18n namespace of the screen; it reads `title`, `searchPlaceholder` (with a search), `add`,
   * `empty`, `confirmDeleteTitle` (with `name`), `confirmDeleteText` and `deleted` from it.
   */
  ns: string;
  /** Shown under the title (e.g. the total count). */
  subtitle?: string;
  /** The header's search field (none without `onSearch`). */
  search?: string;
  onSearch?: (value: string) => void;
  items: T[];
  /** More header buttons, between the search field and the add button. */
  actions?: ReactNode;
  /** One card; `edit` opens the form dialog on the item, `remove` asks to delete it. */
  renderCard: (item: T, on: { edit: () => void; remove: () => void }) => ReactNode;
  /** The add/edit dialog; `item` is null when adding. */
  renderDialog: (p: { open: boolean; item: T | null; onClose: () => void }) => ReactNode;
  remove: DeleteMutation;
  /** The name the delete confirmation shows. */
  itemName: (item: T) => string;
  /** More dialogs of the screen. */
  children?: ReactNode;
}

/**
 * A card-grid screen: header with search and add, the grid (loading, error, empty, infinite scroll),
 * the add/edit dialog and the delete confirmation with its toast.
 */
export function CrudGridPage<T extends { id: number }>(p: CrudGridPageProps<T>) {
  const { t } = useTranslation();
  const { ns, remove } = p;
  const [editing, setEditing] = useState<T | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const del = useDeleteConfirm<T>({
    remove,
    title: (item) => t(`${ns}.confirmDeleteTitle`, { name: p.itemName(item) }),
    text: t(`${ns}.confirmDeleteText`),
    deleted: t(`${ns}.deleted`),
  });

  const openForm = (item: T | null) => {
    setEditing(item);
    setFormOpen(true);
  };

  return (
    <>
      <PageHeader title={t(`${ns}.title`)} subtitle={p.subtitle}>
        {p.onSearch && <SearchField value={p.search ?? ""} onChange={p.onSearch} placeholder={t(`${ns}.searchPlaceholder`)} />}
        {p.actions}
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
          {t(`${ns}.add`)}
        </Button>
      </PageHeader>
      <CardGrid
        label={t(`${ns}.title`)}
        items={p.items}
        getKey={(x) => x.id}
        loading={p.loading}
        error={p.error}
        onRetry={p.onRetry}
        empty={t(`${ns}.empty`)}
        hasMore={p.hasMore}
        loadingMore={p.loadingMore}
        onLoadMore={p.onLoadMore}
        renderCard={(x) => p.renderCard(x, { edit: () => openForm(x), remove: () => del.ask(x) })}
      />
      {p.renderDialog({ open: formOpen, item: editing, onClose: () => setFormOpen(false) })}
      {p.children}
      {del.dialog}
    </>
  );
}
