import type { Queue } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CardGrid } from "../../../components/CardGrid";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { EntityCard } from "../../../components/EntityCard";
import { PageHeader } from "../../../components/PageHeader";
import { SearchField } from "../../../components/SearchField";
import { toastSuccess } from "../../../lib/toast";
import { useDeleteQueue, useQueues, useQueuesLive } from "../api/queues";
import { QueueDialog } from "./QueueDialog";

export default function QueuesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const q = useQueues();
  useQueuesLive();
  const term = search.trim().toLowerCase();
  // The queue list is small and comes whole: the search filters it here.
  const queues = (q.data ?? []).filter((x) => !term || x.name.toLowerCase().includes(term));
  const [editing, setEditing] = useState<Queue | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<Queue | null>(null);
  const remove = useDeleteQueue();

  const openForm = (x: Queue | null) => {
    setEditing(x);
    setFormOpen(true);
  };

  return (
    <>
      <PageHeader title={t("queues.title")}>
        <SearchField value={search} onChange={setSearch} placeholder={t("queues.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
          {t("queues.add")}
        </Button>
      </PageHeader>
      <CardGrid
        label={t("queues.title")}
        items={queues}
        getKey={(x) => x.id}
        loading={q.isPending}
        error={q.isError}
        onRetry={() => void q.refetch()}
        empty={t("queues.empty")}
        renderCard={(x) => (
          <EntityCard
            testId="queue-card"
            avatar={<Box sx={{ width: 40, height: 40, borderRadius: 2, bgcolor: x.color, flexShrink: 0 }} aria-label={x.color} />}
            title={x.name}
            subtitle={x.color}
            onEdit={() => openForm(x)}
            onDelete={() => setDeleting(x)}
          >
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{
                mt: 1,
                display: "-webkit-box",
                WebkitLineClamp: 2,
                WebkitBoxOrient: "vertical",
                overflow: "hidden",
                wordBreak: "break-word",
              }}
            >
              {x.greetingMessage || t("queues.noGreeting")}
            </Typography>
          </EntityCard>
        )}
      />
      <QueueDialog open={formOpen} queue={editing} onClose={() => setFormOpen(false)} />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t("queues.confirmDeleteTitle", { name: deleting?.name ?? "" })}
        text={t("queues.confirmDeleteText")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toastSuccess(t("queues.deleted"));
              setDeleting(null);
            },
          });
        }}
      />
    </>
  );
}
