import { type Contact, SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS, type Ticket } from "@balcao/contract";
import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { http } from "../../../api/http";
import { FormDialog } from "../../../components/FormDialog";
import { useDebounced } from "../../../lib/hooks";
import { flattenPages } from "../../../lib/infinite";
import { formatPhone } from "../../../lib/phone";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useAuth } from "../../auth";
import { useContacts } from "../../contacts";
import { useQueues } from "../../queues";
import { useUsers, visibleUsers } from "../../users";
import { useCreateTicket, useUpdateTicket } from "../api/tickets";

/** The queues an agent may pick: every queue for admins, their own otherwise. */
function useQueueChoices(all = false) {
  const { user } = useAuth();
  const { data } = useQueues();
  if (all || user?.profile === "admin") return data ?? [];
  return user?.queues ?? [];
}

function QueueSelect({
  value,
  onChange,
  label,
  error,
  allowNone,
  all,
}: {
  value: number | "";
  onChange: (v: number | "") => void;
  label: string;
  error?: string;
  allowNone?: string;
  all?: boolean;
}) {
  const queues = useQueueChoices(all);
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value === "" ? "" : Number(e.target.value))}
      error={Boolean(error)}
      helperText={error}
      slotProps={{ htmlInput: { "data-testid": "queue-select" } }}
    >
      {allowNone !== undefined && <MenuItem value="">{allowNone}</MenuItem>}
      {queues.map((q) => (
        <MenuItem key={q.id} value={q.id}>
          {q.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** New ticket: a contact found from 3 typed characters (or created inline) and a queue. */
export function NewTicketDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const create = useCreateTicket();
  const [input, setInput] = useState("");
  const search = useDebounced(input, SEARCH_DEBOUNCE_MS);
  const contacts = useContacts(search);
  const options = useMemo(() => flattenPages(contacts.data, "contacts"), [contacts.data]);
  const [contact, setContact] = useState<Contact | null>(null);
  const [queueId, setQueueId] = useState<number | "">("");
  const [adding, setAdding] = useState<{ name: string; number: string } | null>(null);
  const [errors, setErrors] = useState<{ contact?: string; queue?: string }>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setInput("");
    setContact(null);
    setQueueId(user?.queues.length === 1 ? user.queues[0].id : "");
    setAdding(null);
    setErrors({});
  }, [open, user]);

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!user) return;
    let chosen = contact;
    const errs: typeof errors = {};
    if (!chosen && !adding) errs.contact = t("tickets.newDialog.needContact");
    if (chosen && !chosen.number) errs.contact = t("tickets.noNumber");
    if (queueId === "") errs.queue = t("tickets.newDialog.needQueue");
    setErrors(errs);
    if (errs.contact || errs.queue) return;
    setBusy(true);
    try {
      if (!chosen && adding) chosen = await http.post<Contact>("/contacts", { name: adding.name, number: adding.number, email: "" });
      if (!chosen) return;
      const ticket = await create.mutateAsync({
        contactId: chosen.id,
        queueId: queueId === "" ? null : queueId,
        userId: user.id,
        status: "open",
      });
      onClose();
      navigate(`/tickets/${ticket.id}`);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog open={open} onClose={onClose} onSubmit={onSubmit} submitting={busy} title={t("tickets.newDialog.title")}>
      {adding ? (
        <Stack spacing={2}>
          <TextField
            label={t("tickets.newDialog.name")}
            value={adding.name}
            onChange={(e) => setAdding({ ...adding, name: e.target.value })}
            autoFocus
          />
          <TextField
            label={t("tickets.newDialog.number")}
            placeholder={t("tickets.newDialog.numberPlaceholder")}
            inputMode="tel"
            value={adding.number}
            onChange={(e) => setAdding({ ...adding, number: e.target.value })}
          />
          <Button onClick={() => setAdding(null)} sx={{ alignSelf: "flex-start" }}>
            {t("common.cancel")}
          </Button>
        </Stack>
      ) : (
        <Autocomplete
          options={options}
          value={contact}
          onChange={(_e, v) => setContact(v)}
          inputValue={input}
          onInputChange={(_e, v) => setInput(v)}
          getOptionLabel={(c) => `${c.name}${c.number ? ` - ${formatPhone(c.number)}` : ""}`}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          filterOptions={(x) => x}
          loading={contacts.isFetching}
          noOptionsText={
            input.trim().length >= SEARCH_MIN_CHARS ? (
              <Button size="small" onClick={() => setAdding({ name: input.trim(), number: "" })}>
                {t("tickets.newDialog.addContact", { name: input.trim() })}
              </Button>
            ) : (
              t("tickets.newDialog.contactHint")
            )
          }
          renderInput={(params) => (
            <TextField
              {...params}
              label={t("tickets.newDialog.contact")}
              autoFocus
              error={Boolean(errors.contact)}
              helperText={errors.contact ?? t("tickets.newDialog.contactHint")}
            />
          )}
        />
      )}
      {!adding && (
        <Button size="small" onClick={() => setAdding({ name: input.trim(), number: "" })} sx={{ alignSelf: "flex-start" }}>
          {t("tickets.newDialog.newContact")}
        </Button>
      )}
      <QueueSelect value={queueId} onChange={setQueueId} label={t("tickets.newDialog.queue")} error={errors.queue} />
    </FormDialog>
  );
}

/** The frame of the dialogs acting on one ticket: open while there is one, titled from `tickets.<texts>`. */
function TicketFormDialog({
  ticket,
  texts,
  busy,
  onClose,
  onSubmit,
  children,
}: {
  ticket: Ticket | null;
  texts: "acceptDialog" | "transferDialog";
  busy: boolean;
  onClose: () => void;
  onSubmit: (e: React.FormEvent) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <FormDialog
      open={Boolean(ticket)}
      onClose={onClose}
      onSubmit={onSubmit}
      submitting={busy}
      title={t(`tickets.${texts}.title`)}
      submitLabel={t(`tickets.${texts}.submit`)}
    >
      {children}
    </FormDialog>
  );
}

/** Accept a waiting ticket into a chosen queue. */
export function AcceptTicketDialog({ ticket, onClose }: { ticket: Ticket | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const update = useUpdateTicket();
  const [queueId, setQueueId] = useState<number | "">("");
  const [error, setError] = useState<string>();
  useEffect(() => {
    setQueueId(ticket?.queueId ?? "");
    setError(undefined);
  }, [ticket]);
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!ticket || !user) return;
    if (queueId === "") return setError(t("tickets.acceptDialog.needQueue"));
    try {
      await update.mutateAsync({ id: ticket.id, body: { status: "open", userId: user.id, queueId } });
      onClose();
      navigate(`/tickets/${ticket.id}`);
    } catch {
      /* toasted by the mutation cache */
    }
  };
  return (
    <TicketFormDialog ticket={ticket} texts="acceptDialog" busy={update.isPending} onClose={onClose} onSubmit={onSubmit}>
      <QueueSelect value={queueId} onChange={setQueueId} label={t("tickets.acceptDialog.queue")} error={error} />
    </TicketFormDialog>
  );
}

/** Transfer to a user and/or a queue (a queue makes it waiting there, with nobody on it). */
export function TransferTicketDialog({
  ticket,
  onClose,
  onDone,
  extra,
}: {
  ticket: Ticket | null;
  onClose: () => void;
  onDone?: () => void;
  /** Composed in by the screen under the form (e.g. the AI summary). */
  extra?: (ticket: Ticket) => ReactNode;
}) {
  const { t } = useTranslation();
  const update = useUpdateTicket();
  const users = useUsers("");
  const userOptions = useMemo(() => visibleUsers(flattenPages(users.data, "users")), [users.data]);
  const [userId, setUserId] = useState<number | "">("");
  const [queueId, setQueueId] = useState<number | "">("");
  const [error, setError] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new ticket clears the form
  useEffect(() => {
    setUserId("");
    setQueueId("");
    setError(undefined);
  }, [ticket]);
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!ticket) return;
    if (userId === "" && queueId === "") return setError(t("tickets.transferDialog.needOne"));
    const body =
      userId !== ""
        ? { userId, transf: true, ...(queueId !== "" && { queueId }) }
        : { queueId: queueId as number, userId: null, status: "pending" as const, transf: true };
    try {
      await update.mutateAsync({ id: ticket.id, body });
      toastSuccess(t("tickets.transferred"));
      onClose();
      onDone?.();
    } catch {
      /* toasted by the mutation cache */
    }
  };
  return (
    <TicketFormDialog ticket={ticket} texts="transferDialog" busy={update.isPending} onClose={onClose} onSubmit={onSubmit}>
      <TextField
        select
        label={t("tickets.transferDialog.user")}
        value={userId}
        onChange={(e) => setUserId(e.target.value === "" ? "" : Number(e.target.value))}
        slotProps={{ htmlInput: { "data-testid": "transfer-user" } }}
      >
        <MenuItem value="">{t("tickets.transferDialog.none")}</MenuItem>
        {userOptions.map((u) => (
          <MenuItem key={u.id} value={u.id}>
            {u.name}
          </MenuItem>
        ))}
      </TextField>
      <QueueSelect
        value={queueId}
        onChange={setQueueId}
        label={t("tickets.transferDialog.queue")}
        error={error}
        allowNone={t("tickets.transferDialog.none")}
        all
      />
      {ticket && extra?.(ticket)}
    </TicketFormDialog>
  );
}
