import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CrudGridPage } from "../../../components/CrudGridPage";
import { EntityCard } from "../../../components/EntityCard";
import { listState } from "../../../lib/list-state";
import { useDeleteQueue, useQueues, useQueuesLive } from "../api/queues";
import { QueueDialog } from "./QueueDialog";

export default function QueuesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const q = useQueues();
  useQueuesLive();
  const remove = useDeleteQueue();
  const term = search.trim().toLowerCase();
  // The queue list is small and comes whole: the search filters it here, with no debounce and no next page.
  const queues = (q.data ?? []).filter((x) => !term || x.name.toLowerCase().includes(term));

  return (
    <CrudGridPage
      ns="queues"
      search={search}
      onSearch={setSearch}
      items={queues}
      {...listState(q)}
      remove={remove}
      itemName={(x) => x.name}
      renderDialog={(d) => <QueueDialog open={d.open} queue={d.item} onClose={d.onClose} />}
      renderCard={(x, on) => (
        <EntityCard
          testId="queue-card"
          avatar={<Box sx={{ width: 40, height: 40, borderRadius: 2, bgcolor: x.color, flexShrink: 0 }} aria-label={x.color} />}
          title={x.name}
          subtitle={x.color}
          onEdit={on.edit}
          onDelete={on.remove}
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
  );
}
