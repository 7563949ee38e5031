import "../i18n";
import type { Ticket } from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ContractsTable } from "./ContractsTable";
import { NewContractDialog } from "./NewContractDialog";

/** The per-ticket dialog (001 §2): the ticket's contracts with the screen's filters, and 'Novo Contrato'. */
export default function ContractsDialog({ ticket, open, onClose }: { ticket: Ticket; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down("sm"));
  const [creating, setCreating] = useState(false);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth="lg"
      fullWidth
      fullScreen={phone}
      aria-labelledby="contracts-dialog-title"
      data-testid="contracts-dialog"
    >
      <DialogTitle id="contracts-dialog-title">
        {t("contracts.dialogTitle")} · {ticket.contact.name}
      </DialogTitle>
      <DialogContent dividers>
        {open && (
          <ContractsTable
            ticketId={ticket.id}
            extraActions={
              <Button
                variant="contained"
                color="success"
                startIcon={<AddIcon />}
                onClick={() => setCreating(true)}
                data-testid="contract-new"
              >
                {t("contracts.newContract")}
              </Button>
            }
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("contracts.close")}</Button>
      </DialogActions>
      <NewContractDialog open={creating} ticketId={ticket.id} contact={ticket.contact} onClose={() => setCreating(false)} />
    </Dialog>
  );
}
