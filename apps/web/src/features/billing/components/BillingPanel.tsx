import type { BillingContract, BillingInvoice } from "@balcao/contract";
import LockOpenIcon from "@mui/icons-material/LockOpen";
import PixIcon from "@mui/icons-material/Pix";
import ReceiptLongIcon from "@mui/icons-material/ReceiptLong";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip, { type ChipProps } from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/http";
import { toastError, toastSuccess } from "../../../lib/toast";
import { billingKnownUnconfigured, useBillingCustomer, useSendInvoice, useUnlock } from "../api/billing";
import "../i18n";

const STATUS_COLOR: Record<BillingContract["status"], ChipProps["color"]> = {
  active: "success",
  reduced: "warning",
  suspended: "error",
  inactive: "default",
  cancelled: "default",
  new: "info",
  unknown: "default",
};
const CONN_COLOR: Record<string, ChipProps["color"]> = {
  online: "success",
  released: "success",
  offline: "warning",
  blocked: "error",
  maintenance: "warning",
  unknown: "default",
};

const money = (n: number) => n.toLocaleString("pt-BR", { style: "currency", currency: "BRL" });
const date = (iso: string) => (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso.split("-").reverse().join("/") : iso);

/**
 * The contact drawer's billing panel: the customer's contracts, open invoices and connection from
 * SGP / MK-AUTH, with buttons that send a 2ª via or a PIX into the conversation and a confirmed
 * 'Desbloquear'. `canAct`: the agent may write in this ticket (open, theirs, or supervisor/admin).
 */
export function BillingPanel({ ticketId, canAct, open }: { ticketId: number; canAct: boolean; open: boolean }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");
  const [document, setDocument] = useState<string | undefined>();
  const [contractId, setContractId] = useState<string | undefined>();
  const [confirm, setConfirm] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const q = useBillingCustomer(ticketId, { document, contractId, enabled: open });
  const send = useSendInvoice(ticketId);
  const unlock = useUnlock(ticketId);
  const code = q.error instanceof ApiError ? q.error.code : undefined;

  // no billing system: nothing to show, and no request while that is known (billingKnownUnconfigured)
  if (code === "ERR_BILLING_NOT_CONFIGURED" || (!q.data && !q.isFetching && billingKnownUnconfigured())) return null;

  const frame = (children: React.ReactNode) => (
    <Box sx={{ width: "100%", textAlign: "left", display: "flex", flexDirection: "column", gap: 1 }} data-testid="billing-panel">
      <Typography variant="subtitle2">{t("billing.title", { system: q.data?.system ?? "SGP / MK-AUTH" })}</Typography>
      {children}
    </Box>
  );

  if (q.isLoading)
    return frame(
      <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
        <CircularProgress size={22} />
      </Box>,
    );
  if (q.isError && code !== "ERR_INVALID_DOCUMENT")
    return frame(
      <Alert
        severity="warning"
        action={
          <Button color="inherit" size="small" onClick={() => void q.refetch()}>
            {t("billing.retry")}
          </Button>
        }
      >
        {t("billing.unavailable")}
      </Alert>,
    );

  const data = q.data;
  const contract = data?.contract ?? null;
  const search = (
    <Box
      component="form"
      sx={{ display: "flex", gap: 1 }}
      onSubmit={(e) => {
        e.preventDefault();
        setContractId(undefined);
        setDocument(typed.replace(/\D/g, "") || undefined);
      }}
    >
      <TextField
        size="small"
        label={t("billing.document")}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        inputProps={{ inputMode: "numeric", "data-testid": "billing-document" }}
        error={code === "ERR_INVALID_DOCUMENT"}
        helperText={code === "ERR_INVALID_DOCUMENT" ? t("errors.ERR_INVALID_DOCUMENT") : undefined}
        sx={{ flex: 1 }}
      />
      <Button type="submit" variant="outlined" size="small">
        {t("billing.search")}
      </Button>
    </Box>
  );

  if (!contract)
    return frame(
      <>
        {data && (
          <Typography variant="body2" color="text.secondary">
            {t("billing.notFound")}
          </Typography>
        )}
        {search}
      </>,
    );

  const sendOne = (inv: BillingInvoice, mode: "invoice" | "pix") =>
    send.mutate(
      { contractId: contract.id, invoiceId: inv.id, mode },
      { onSuccess: () => toastSuccess(t("billing.sent")), onError: (e) => toastError(e) },
    );

  return frame(
    <>
      {data && data.contracts.length > 1 && (
        <TextField
          select
          size="small"
          label={t("billing.contract")}
          value={contract.id}
          onChange={(e) => setContractId(e.target.value)}
          inputProps={{ "data-testid": "billing-contract-select" }}
        >
          {data.contracts.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.id} — {c.address || c.plan}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Box sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 1.25 }} data-testid="billing-contract">
        <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: "break-word" }}>
          {contract.customerName}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div">
          {t("billing.contract")} {contract.id}
          {contract.plan ? ` · ${contract.plan}` : ""}
        </Typography>
        {contract.address && (
          <Typography variant="caption" color="text.secondary" component="div" sx={{ wordBreak: "break-word" }}>
            {contract.address}
          </Typography>
        )}
        <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", mt: 1 }}>
          <Chip
            size="small"
            color={STATUS_COLOR[contract.status]}
            label={t(`billing.status.${contract.status}`)}
            data-testid="billing-status"
          />
          {data?.connection && (
            <Chip
              size="small"
              variant="outlined"
              color={CONN_COLOR[data.connection.state]}
              label={`${t("billing.connection")}: ${t(`billing.conn.${data.connection.state}`)}`}
              title={data.connection.message}
              data-testid="billing-connection"
            />
          )}
        </Box>
        {canAct && (
          <Button
            size="small"
            variant="outlined"
            color="warning"
            startIcon={<LockOpenIcon />}
            sx={{ mt: 1 }}
            onClick={() => setConfirm(true)}
            data-testid="billing-unlock"
          >
            {t("billing.unlock")}
          </Button>
        )}
        {data && data.actions.length > 0 && (
          <Box sx={{ mt: 1 }} data-testid="billing-actions">
            <Typography variant="caption" color="text.secondary" component="div">
              {t("billing.record")}
            </Typography>
            {data.actions.map((a) => (
              <Typography key={`${a.createdAt}-${a.contractId}`} variant="caption" component="div" sx={{ wordBreak: "break-word" }}>
                {new Date(a.createdAt).toLocaleString()} · {a.ok ? t("billing.recordOk") : t("billing.recordRefused")} ·{" "}
                {a.userName ?? t("billing.byCustomer")}
                {a.protocol ? ` · ${a.protocol}` : ""}
                {a.message ? ` — ${a.message}` : ""}
              </Typography>
            ))}
          </Box>
        )}
        {outcome && (
          <Alert
            severity={outcome.ok ? "success" : "warning"}
            sx={{ mt: 1 }}
            onClose={() => setOutcome(null)}
            data-testid="billing-unlock-result"
          >
            {outcome.text}
          </Alert>
        )}
      </Box>

      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {t("billing.invoices")}
      </Typography>
      {data?.invoices.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t("billing.noInvoices")}
        </Typography>
      )}
      {data?.invoices.map((inv) => (
        <Box key={inv.id} sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 1.25 }} data-testid="billing-invoice">
          <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 1 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {money(inv.amount)}
            </Typography>
            <Box sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
              <Typography variant="caption" color={inv.overdue ? "error" : "text.secondary"}>
                {t("billing.due", { date: date(inv.dueDate) })}
              </Typography>
              {inv.overdue && <Chip size="small" color="error" variant="outlined" label={t("billing.overdue")} />}
            </Box>
          </Box>
          {inv.digitableLine && (
            <Typography variant="caption" component="div" sx={{ fontFamily: "monospace", wordBreak: "break-all", mt: 0.5 }}>
              {inv.digitableLine}
            </Typography>
          )}
          <Box sx={{ display: "flex", gap: 1, mt: 1, flexWrap: "wrap", alignItems: "center" }}>
            {canAct && (
              <>
                <Button
                  size="small"
                  variant="contained"
                  startIcon={<ReceiptLongIcon />}
                  disabled={send.isPending}
                  onClick={() => sendOne(inv, "invoice")}
                  data-testid="billing-send-invoice"
                >
                  {t("billing.sendInvoice")}
                </Button>
                <Button
                  size="small"
                  variant="outlined"
                  startIcon={<PixIcon />}
                  disabled={send.isPending}
                  onClick={() => sendOne(inv, "pix")}
                  data-testid="billing-send-pix"
                >
                  {t("billing.sendPix")}
                </Button>
              </>
            )}
            {inv.pdfUrl && (
              <Link href={inv.pdfUrl} target="_blank" rel="noopener noreferrer" variant="body2">
                {t("billing.pdf")}
              </Link>
            )}
          </Box>
        </Box>
      ))}
      {search}

      <Dialog open={confirm} onClose={() => setConfirm(false)}>
        <DialogTitle>{t("billing.unlockTitle")}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t("billing.unlockText", { contract: contract.id, name: contract.customerName, system: data?.system ?? "" })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>{t("billing.cancel")}</Button>
          <Button
            color="warning"
            variant="contained"
            disabled={unlock.isPending}
            data-testid="billing-unlock-confirm"
            onClick={() =>
              unlock.mutate(contract.id, {
                onSuccess: (r) => {
                  setConfirm(false);
                  setOutcome(
                    r.unlocked
                      ? { ok: true, text: t("billing.unlocked", { days: r.days ?? "?" }) }
                      : { ok: false, text: t("billing.refused", { message: r.message }) },
                  );
                },
                onError: (e) => {
                  setConfirm(false);
                  toastError(e);
                },
              })
            }
          >
            {t("billing.unlockConfirm")}
          </Button>
        </DialogActions>
      </Dialog>
    </>,
  );
}
