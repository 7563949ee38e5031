import { type Contact, SEARCH_DEBOUNCE_MS } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import DeleteSweepIcon from "@mui/icons-material/DeleteSweep";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import Avatar from "@mui/material/Avatar";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CardGrid } from "../../../components/CardGrid";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { EntityCard } from "../../../components/EntityCard";
import { PageHeader } from "../../../components/PageHeader";
import { SearchField } from "../../../components/SearchField";
import { initials, useDebounced } from "../../../lib/hooks";
import { flattenPages } from "../../../lib/infinite";
import { toastSuccess } from "../../../lib/toast";
import { useAuth } from "../../auth/auth-context";
import { useContacts, useContactsLive, useDeleteAllContacts, useDeleteContact } from "../api/contacts";
import { ContactDialog } from "./ContactDialog";
import { ImportDialog } from "./ImportDialog";

export default function ContactsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const canDelete = user?.profile === "admin";
  const canImport = user?.profile === "admin" || user?.profile === "superv";
  const [search, setSearch] = useState("");
  const debounced = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const q = useContacts(debounced);
  useContactsLive();
  const contacts = flattenPages(q.data, "contacts");
  const count = q.data?.pages[0]?.count;

  const [editing, setEditing] = useState<Contact | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [deleteAllOpen, setDeleteAllOpen] = useState(false);
  const remove = useDeleteContact();
  const removeAll = useDeleteAllContacts();

  const openForm = (c: Contact | null) => {
    setEditing(c);
    setFormOpen(true);
  };

  return (
    <>
      <PageHeader title={t("contacts.title")} subtitle={count !== undefined ? t("contacts.count", { count }) : undefined}>
        <SearchField value={search} onChange={setSearch} placeholder={t("contacts.searchPlaceholder")} />
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
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
          {t("contacts.add")}
        </Button>
      </PageHeader>

      <CardGrid
        label={t("contacts.title")}
        items={contacts}
        getKey={(c) => c.id}
        loading={q.isPending}
        error={q.isError}
        onRetry={() => void q.refetch()}
        empty={t("contacts.empty")}
        hasMore={q.hasNextPage}
        loadingMore={q.isFetchingNextPage}
        onLoadMore={() => void q.fetchNextPage()}
        renderCard={(c) => (
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
            subtitle={c.number ?? "—"}
            onEdit={() => openForm(c)}
            onDelete={canDelete ? () => setDeleting(c) : undefined}
          >
            {c.email && (
              <Typography variant="body2" color="text.secondary" noWrap>
                {c.email}
              </Typography>
            )}
            {c.tags.length > 0 && (
              <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: "wrap", rowGap: 0.5 }}>
                {c.tags.map((tag) => (
                  <Chip key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: "#fff" }} />
                ))}
              </Stack>
            )}
          </EntityCard>
        )}
      />

      <ContactDialog open={formOpen} contact={editing} onClose={() => setFormOpen(false)} />
      <ImportDialog open={importOpen} onClose={() => setImportOpen(false)} />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t("contacts.confirmDeleteTitle", { name: deleting?.name ?? "" })}
        text={t("contacts.confirmDeleteText")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toastSuccess(t("contacts.deleted"));
              setDeleting(null);
            },
          });
        }}
      />
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
    </>
  );
}
