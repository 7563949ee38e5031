import { SEARCH_DEBOUNCE_MS, type User } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
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
import { useDeleteUser, useUsers, useUsersLive, visibleUsers } from "../api/users";
import { UserDialog } from "./UserDialog";

export default function UsersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const debounced = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const q = useUsers(debounced);
  useUsersLive();
  const users = visibleUsers(flattenPages(q.data, "users"));
  const [editing, setEditing] = useState<User | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);
  const remove = useDeleteUser();

  const openForm = (u: User | null) => {
    setEditing(u);
    setFormOpen(true);
  };

  return (
    <>
      <PageHeader title={t("users.title")}>
        <SearchField value={search} onChange={setSearch} placeholder={t("users.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
          {t("users.add")}
        </Button>
      </PageHeader>
      <CardGrid
        label={t("users.title")}
        items={users}
        getKey={(u) => u.id}
        loading={q.isPending}
        error={q.isError}
        onRetry={() => void q.refetch()}
        empty={t("users.empty")}
        hasMore={q.hasNextPage}
        loadingMore={q.isFetchingNextPage}
        onLoadMore={() => void q.fetchNextPage()}
        renderCard={(u) => (
          <EntityCard
            testId="user-card"
            avatar={<Avatar sx={{ bgcolor: "secondary.main", color: "secondary.contrastText", fontSize: 16 }}>{initials(u.name)}</Avatar>}
            title={u.name}
            subtitle={u.email}
            onEdit={() => openForm(u)}
            onDelete={() => setDeleting(u)}
          >
            <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: "wrap", rowGap: 0.5 }}>
              <Chip size="small" variant="outlined" label={t(`users.profiles.${u.profile}`)} />
              {u.queues.length === 0 ? (
                <Typography variant="caption" color="text.secondary" sx={{ alignSelf: "center" }}>
                  {t("users.noQueues")}
                </Typography>
              ) : (
                u.queues.map((queue) => (
                  <Chip key={queue.id} size="small" label={queue.name} sx={{ bgcolor: queue.color, color: "#fff" }} />
                ))
              )}
            </Stack>
          </EntityCard>
        )}
      />
      <UserDialog open={formOpen} user={editing} onClose={() => setFormOpen(false)} />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t("users.confirmDeleteTitle", { name: deleting?.name ?? "" })}
        text={t("users.confirmDeleteText")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toastSuccess(t("users.deleted"));
              setDeleting(null);
            },
          });
        }}
      />
    </>
  );
}
