import { CONTACTS_COUNT_CAP, SEARCH_DEBOUNCE_MS } from "@balcao/contract";
import DeleteSweepIcon from "@mui/icons-material/DeleteSweep";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import Avatar from "@mui/material/Avatar";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { CrudGridPage } from "../../../components/CrudGridPage";
import { EntityCard } from "../../../components/EntityCard";
import { initials, useDebounced } from "../../../lib/hooks";
import { flattenPages } from "../../../lib/infinite";
import { infiniteListState } from "../../../lib/list-state";
import { formatPhone } from "../../../lib/phone";
import { toastSuccess } from "../../../lib/toast";
import { useAuth } from "../../auth";
import { useContacts, useContactsLive, useDeleteAllContacts, useDeleteContact } from "../api/contacts";
import { ContactDialog } from "./ContactDialog";
import { ImportDialog } from "./ImportDialog";
import { textOn } from "../../../lib/contrast";

/** Besides the shared grid: the total count, CSV import (admin, superv) and delete/delete-all (admin only). */
export default function ContactsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const canDelete = user?.profile === "admin";
  const canImport = user?.profile === "admin" || user?.profile === "superv";
  const [search, setSearch] = useState("");
  const debounced = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const q = useContacts(debounced);
  useContactsLive();
  const count = q.data?.pages[0]?.count;

  const [importOpen, setImportOpen] = useState(false);
  const [deleteAllOpen, setDeleteAllOpen] = useState(false);
  const remove = useDeleteContact();
  const removeAll = useDeleteAllContacts();

  return (
    <CrudGridPage
      ns="contacts"
      subtitle={
        // the server counts up to CONTACTS_COUNT_CAP: at the cap there may be more
        count !== undefined ? t("contacts.count", { count: count >= CONTACTS_COUNT_CAP ? `${CONTACTS_COUNT_CAP}+` : count }) : undefined
      }
      search={search}
      onSearch={setSearch}
      items={flattenPages(q.data, "contacts")}
      {...infiniteListState(q)}
      remove={remove}
      itemName={(c) => c.name}
      actions={
        <>
          {canImport && (
            <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setImportOpen(true)}>
              {t("contacts.import")}
            </Button>
          )}
          {canDelete && (
            <Button variant="outlined" color="error" startIcon={<DeleteSweepIcon />} onClick={() => setDeleteAllOpen(true)}>
              {t("contacts.deleteAll")}
            </Button>
          )}
        </>
      }
      renderDialog={(d) => <ContactDialog open={d.open} contact={d.item} onClose={d.onClose} />}
      renderCard={(c, on) => (
        <EntityCard
          testId="contact-card"
          avatar={
            <Avatar
              src={c.profilePicUrl || undefined}
              alt={c.name}
              sx={{ bgcolor: "primary.main", color: "primary.contrastText", fontSize: 16 }}
            >
              {initials(c.name)}
            </Avatar>
          }
          title={c.name}
          subtitle={formatPhone(c.number) || "—"}
          onEdit={on.edit}
          onDelete={canDelete ? on.remove : undefined}
        >
          {c.email && (
            <Typography variant="body2" color="text.secondary" noWrap>
              {c.email}
            </Typography>
          )}
          {c.tags.length > 0 && (
            <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: "wrap", rowGap: 0.5 }}>
              {c.tags.map((tag) => (
                <Chip key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: textOn(tag.color) }} />
              ))}
            </Stack>
          )}
        </EntityCard>
      )}
    >
      <ImportDialog open={importOpen} onClose={() => setImportOpen(false)} />
      <ConfirmDialog
        open={deleteAllOpen}
        title={t("contacts.confirmDeleteAllTitle")}
        text={t("contacts.confirmDeleteAllText")}
        confirmLabel={t("contacts.deleteAll")}
        busy={removeAll.isPending}
        onClose={() => setDeleteAllOpen(false)}
        onConfirm={() =>
          removeAll.mutate(undefined, {
            onSuccess: () => {
              toastSuccess(t("contacts.deletedAll"));
              setDeleteAllOpen(false);
            },
          })
        }
      />
    </CrudGridPage>
  );
}
