import { type ReactNode, useState } from "react";
import { toastSuccess } from "../lib/toast";
import { ConfirmDialog } from "./ConfirmDialog";

/** The delete mutation of an entity, called with its id. */
export interface DeleteMutation {
  isPending: boolean;
  mutate: (id: number, options: { onSuccess: () => void }) => void;
}

/**
 * The grids' delete: `ask(item)` opens the confirmation (its title and text from the item), 'Excluir'
 * calls the mutation, and its success closes the dialog with the `deleted` toast. Render `dialog`.
 */
export function useDeleteConfirm<T extends { id: number }>({
  remove,
  title,
  text,
  deleted,
}: {
  remove: DeleteMutation;
  title: (item: T) => string;
  text?: string;
  deleted: string;
}): { ask: (item: T) => void; dialog: ReactNode } {
  const [deleting, setDeleting] = useState<T | null>(null);
  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      title={deleting ? title(deleting) : ""}
      text={text}
      busy={remove.isPending}
      onClose={() => setDeleting(null)}
      onConfirm={() => {
        if (!deleting) return;
        remove.mutate(deleting.id, {
          onSuccess: () => {
            toastSuccess(deleted);
            setDeleting(null);
          },
        });
      }}
    />
  );
  return { ask: setDeleting, dialog };
}
