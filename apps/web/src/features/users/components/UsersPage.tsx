import { SEARCH_DEBOUNCE_MS } from "@balcao/contract";
import Avatar from "@mui/material/Avatar";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CrudGridPage } from "../../../components/CrudGridPage";
import { EntityCard } from "../../../components/EntityCard";
import { initials, useDebounced } from "../../../lib/hooks";
import { flattenPages } from "../../../lib/infinite";
import { infiniteListState } from "../../../lib/list-state";
import { useDeleteUser, useUsers, useUsersLive, visibleUsers } from "../api/users";
import { UserDialog } from "./UserDialog";
import { textOn } from "../../../lib/contrast";

export default function UsersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const debounced = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const q = useUsers(debounced);
  useUsersLive();
  const remove = useDeleteUser();

  return (
    <CrudGridPage
      ns="users"
      search={search}
      onSearch={setSearch}
      items={visibleUsers(flattenPages(q.data, "users"))}
      {...infiniteListState(q)}
      remove={remove}
      itemName={(u) => u.name}
      renderDialog={(d) => <UserDialog open={d.open} user={d.item} onClose={d.onClose} />}
      renderCard={(u, on) => (
        <EntityCard
          testId="user-card"
          avatar={<Avatar sx={{ bgcolor: "secondary.main", color: "secondary.contrastText", fontSize: 16 }}>{initials(u.name)}</Avatar>}
          title={u.name}
          subtitle={u.email}
          onEdit={on.edit}
          onDelete={on.remove}
        >
          <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: "wrap", rowGap: 0.5 }}>
            <Tooltip title={t(`users.profileHelp.${u.profile}`)}>
              <Chip size="small" variant="outlined" label={t(`users.profiles.${u.profile}`)} />
            </Tooltip>
            {u.queues.length === 0 ? (
              <Typography variant="caption" color="text.secondary" sx={{ alignSelf: "center" }}>
                {t("users.noQueues")}
              </Typography>
            ) : (
              u.queues.map((queue) => (
                <Chip key={queue.id} size="small" label={queue.name} sx={{ bgcolor: queue.color, color: textOn(queue.color) }} />
              ))
            )}
          </Stack>
        </EntityCard>
      )}
    />
  );
}
