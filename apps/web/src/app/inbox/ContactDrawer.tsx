import CloseIcon from "@mui/icons-material/Close";
import EditIcon from "@mui/icons-material/Edit";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { BillingPanel } from "../../features/billing";
import { ContactDialog, useContact } from "../../features/contacts";
import { initials } from "../../lib/hooks";
import { formatPhone } from "../../lib/phone";

/** The contact's side panel of the chat: details, edit, extra fields and the billing panel. */
export function ContactDrawer({
  contactId,
  ticketId,
  canAct,
  open,
  onClose,
}: {
  contactId: number;
  ticketId: number;
  canAct: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const q = useContact(contactId, open);
  const c = q.data;
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: "100%", sm: 340 } } } }}>
      <Box sx={{ display: "flex", alignItems: "center", p: 1, gap: 1 }}>
        <IconButton aria-label={t("common.close")} onClick={onClose}>
          <CloseIcon />
        </IconButton>
        <Typography variant="subtitle1">{t("chat.contactInfo")}</Typography>
      </Box>
      <Divider />
      {!c ? (
        <Box sx={{ p: 4, display: "flex", justifyContent: "center" }}>
          <CircularProgress size={24} />
        </Box>
      ) : (
        <Box
          sx={{ p: 2, display: "flex", flexDirection: "column", gap: 1.5, alignItems: "center", textAlign: "center" }}
          data-testid="contact-drawer"
        >
          <Avatar src={c.profilePicUrl || undefined} sx={{ width: 96, height: 96, fontSize: 32 }}>
            {initials(c.name)}
          </Avatar>
          <Typography variant="h6" sx={{ wordBreak: "break-word" }}>
            {c.name}
          </Typography>
          {c.number && (
            <Link href={`tel:+${c.number}`} data-testid="contact-tel">
              {formatPhone(c.number)}
            </Link>
          )}
          {c.email && (
            <Link href={`mailto:${c.email}`} sx={{ wordBreak: "break-all" }}>
              {c.email}
            </Link>
          )}
          <Button variant="outlined" startIcon={<EditIcon />} onClick={() => setEditing(true)}>
            {t("chat.editContact")}
          </Button>
          {c.extraInfo.length > 0 && (
            <Box sx={{ width: "100%", textAlign: "left" }}>
              <Typography variant="subtitle2" sx={{ mb: 1 }}>
                {t("chat.extraInfo")}
              </Typography>
              {c.extraInfo.map((e, i) => (
                <Box key={e.id ?? i} sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 1, mb: 1 }}>
                  <Typography variant="caption" color="text.secondary">
                    {e.name}
                  </Typography>
                  <Typography variant="body2" sx={{ wordBreak: "break-word" }}>
                    {e.value}
                  </Typography>
                </Box>
              ))}
            </Box>
          )}
          {!c.isGroup && <BillingPanel ticketId={ticketId} canAct={canAct} open={open} />}
        </Box>
      )}
      <ContactDialog
        open={editing}
        contact={c ?? null}
        onClose={() => {
          setEditing(false);
          void q.refetch();
        }}
      />
    </Drawer>
  );
}
