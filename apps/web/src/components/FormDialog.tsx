import CloseIcon from "@mui/icons-material/Close";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { FormEventHandler, ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface FormDialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
  children: ReactNode;
  submitLabel?: string;
}

/** A form in a dialog; full screen on phones. */
export function FormDialog({ open, title, onClose, onSubmit, submitting, children, submitLabel }: FormDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down("sm"));
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="sm"
      aria-labelledby="form-dialog-title"
      slotProps={{ paper: { component: "form", noValidate: true, onSubmit } as object }}
    >
      <DialogTitle id="form-dialog-title" sx={{ pr: 6 }}>
        {title}
        <IconButton aria-label={t("common.close")} onClick={onClose} sx={{ position: "absolute", right: 8, top: 10 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 0.5 }}>
          {children}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button type="submit" variant="contained" disabled={submitting}>
          {submitLabel ?? t("common.save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
