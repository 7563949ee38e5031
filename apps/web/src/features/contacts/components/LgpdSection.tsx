import "../i18n";
import type { Contact, ContactEraseAnswer } from "@balcao/contract";
import DeleteForeverIcon from "@mui/icons-material/DeleteForever";
import DownloadIcon from "@mui/icons-material/Download";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { http } from "../../../api/http";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { downloadWithSession } from "../../../lib/download";
import { toastError, toastInfo, toastSuccess } from "../../../lib/toast";
import { contactsKey } from "../api/contacts";

/** Admins: the contact's data as a ZIP (LGPD art. 18 II) and its erasure (art. 18 VI), with a confirmation. */
export function LgpdSection({ contact, onErased }: { contact: Contact; onErased: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const [exporting, setExporting] = useState(false);
  const erase = useMutation({
    mutationFn: () => http.post<ContactEraseAnswer>(`/contacts/${contact.id}/erase`),
    onSuccess: (r) => {
      toastSuccess(t("contactsLgpd.erased", { messages: r.messages, files: r.mediaFiles }));
      if (r.keptSignedContracts > 0) toastInfo(t("contactsLgpd.keptContracts", { count: r.keptSignedContracts }));
      void qc.invalidateQueries({ queryKey: contactsKey });
      setConfirm(false);
      onErased();
    },
    onError: toastError,
  });
  const onExport = async () => {
    setExporting(true);
    try {
      await downloadWithSession(`/contacts/${contact.id}/export`, `contato-${contact.id}.zip`);
      toastSuccess(t("contactsLgpd.exported"));
    } catch (err) {
      toastError(err);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Box
      sx={{ borderTop: 1, borderColor: "divider", pt: 1.5, mt: 1, display: "flex", flexDirection: "column", gap: 1 }}
      data-testid="contact-lgpd"
    >
      <Typography variant="subtitle2">{t("contactsLgpd.title")}</Typography>
      {contact.erasedAt ? (
        <Alert severity="info">{t("contactsLgpd.erasedAt", { when: new Date(contact.erasedAt).toLocaleString(i18n.language) })}</Alert>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t("contactsLgpd.help")}
        </Typography>
      )}
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => void onExport()}
          disabled={exporting}
          data-testid="contact-export"
        >
          {t("contactsLgpd.export")}
        </Button>
        {!contact.erasedAt && (
          <Button
            color="error"
            variant="outlined"
            startIcon={<DeleteForeverIcon />}
            onClick={() => setConfirm(true)}
            data-testid="contact-erase"
          >
            {t("contactsLgpd.erase")}
          </Button>
        )}
      </Box>
      <ConfirmDialog
        open={confirm}
        title={t("contactsLgpd.confirmTitle", { name: contact.name })}
        text={t("contactsLgpd.confirmText")}
        confirmLabel={t("contactsLgpd.confirm")}
        busy={erase.isPending}
        onConfirm={() => erase.mutate()}
        onClose={() => setConfirm(false)}
      />
    </Box>
  );
}
