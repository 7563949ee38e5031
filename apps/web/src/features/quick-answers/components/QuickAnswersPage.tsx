import { SEARCH_DEBOUNCE_MS } from "@balcao/contract";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { CrudGridPage } from "../../../components/CrudGridPage";
import { EntityCard } from "../../../components/EntityCard";
import { useDebounced } from "../../../lib/hooks";
import { flattenPages } from "../../../lib/infinite";
import { infiniteListState } from "../../../lib/list-state";
import { useDeleteQuickAnswer, useQuickAnswers, useQuickAnswersLive } from "../api/quick-answers";
import { QuickAnswerDialog } from "./QuickAnswerDialog";

export default function QuickAnswersPage() {
  const [search, setSearch] = useState("");
  const debounced = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const q = useQuickAnswers(debounced);
  useQuickAnswersLive();
  const remove = useDeleteQuickAnswer();

  return (
    <CrudGridPage
      ns="quickAnswers"
      search={search}
      onSearch={setSearch}
      items={flattenPages(q.data, "quickAnswers")}
      {...infiniteListState(q)}
      remove={remove}
      itemName={(x) => x.shortcut}
      renderDialog={(d) => <QuickAnswerDialog open={d.open} quickAnswer={d.item} onClose={d.onClose} />}
      renderCard={(x, on) => (
        <EntityCard testId="quick-answer-card" title={`/${x.shortcut}`} onEdit={on.edit} onDelete={on.remove}>
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
  );
}
