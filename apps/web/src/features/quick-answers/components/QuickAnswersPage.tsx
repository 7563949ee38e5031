import { type QuickAnswer, SEARCH_DEBOUNCE_MS } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CardGrid } from "../../../components/CardGrid";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { EntityCard } from "../../../components/EntityCard";
import { PageHeader } from "../../../components/PageHeader";
import { SearchField } from "../../../components/SearchField";
import { useDebounced } from "../../../lib/hooks";
import { flattenPages } from "../../../lib/infinite";
import { toastSuccess } from "../../../lib/toast";
import { useDeleteQuickAnswer, useQuickAnswers, useQuickAnswersLive } from "../api/quick-answers";
import { QuickAnswerDialog } from "./QuickAnswerDialog";

export default function QuickAnswersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const debounced = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const q = useQuickAnswers(debounced);
  useQuickAnswersLive();
  const items = flattenPages(q.data, "quickAnswers");
  const [editing, setEditing] = useState<QuickAnswer | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<QuickAnswer | null>(null);
  const remove = useDeleteQuickAnswer();

  const openForm = (x: QuickAnswer | null) => {
    setEditing(x);
    setFormOpen(true);
  };

  return (
    <>
      <PageHeader title={t("quickAnswers.title")}>
        <SearchField value={search} onChange={setSearch} placeholder={t("quickAnswers.searchPlaceholder")} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
          {t("quickAnswers.add")}
        </Button>
      </PageHeader>
      <CardGrid
        label={t("quickAnswers.title")}
        items={items}
        getKey={(x) => x.id}
        loading={q.isPending}
        error={q.isError}
        onRetry={() => void q.refetch()}
        empty={t("quickAnswers.empty")}
        hasMore={q.hasNextPage}
        loadingMore={q.isFetchingNextPage}
        onLoadMore={() => void q.fetchNextPage()}
        renderCard={(x) => (
          <EntityCard testId="quick-answer-card" title={`/${x.shortcut}`} onEdit={() => openForm(x)} onDelete={() => setDeleting(x)}>
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{
                mt: 0.5,
                display: "-webkit-box",
                WebkitLineClamp: 3,
                WebkitBoxOrient: "vertical",
                overflow: "hidden",
                wordBreak: "break-word",
                whiteSpace: "pre-line",
              }}
            >
              {x.message}
            </Typography>
          </EntityCard>
        )}
      />
      <QuickAnswerDialog open={formOpen} quickAnswer={editing} onClose={() => setFormOpen(false)} />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t("quickAnswers.confirmDeleteTitle", { name: deleting?.shortcut ?? "" })}
        text={t("quickAnswers.confirmDeleteText")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toastSuccess(t("quickAnswers.deleted"));
              setDeleting(null);
            },
          });
        }}
      />
    </>
  );
}
