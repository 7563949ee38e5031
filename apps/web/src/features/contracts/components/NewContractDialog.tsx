import "../i18n";
import { CONTRACT_FIELDS, CONTRACT_VARIABLES, fillContract, formatCpf, isValidCpf } from "@balcao/contract";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useContractSettings, useCreateContract, useTemplates } from "../api/contracts";
import { previewValues } from "../lib";

/** What the dialog prefills from: the ticket's contact (a CPF from its extra info when one is named so). */
export interface ContactPrefill {
  name: string;
  email: string;
  /** the ticket's WhatsApp number (or LID), the contract's {telefone} */
  number?: string | null;
  lid?: string | null;
  extraInfo?: { name: string; value: string }[];
}

const cpfOf = (c: ContactPrefill | undefined) => c?.extraInfo?.find((e) => /cpf/i.test(e.name))?.value ?? "";

/** 'Novo Contrato': a template and the customer's data (prefilled from the contact; the CPF checked by its digits). */
export function NewContractDialog({
  open,
  ticketId,
  contact,
  onClose,
}: {
  open: boolean;
  ticketId: number;
  contact?: ContactPrefill;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const templates = useTemplates(open);
  const settings = useContractSettings(open);
  const create = useCreateContract();
  const [modeloId, setModeloId] = useState<number | "">("");
  const [titulo, setTitulo] = useState("");
  const [nome, setNome] = useState("");
  const [email, setEmail] = useState("");
  const [cpf, setCpf] = useState("");
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (!open) return;
    setNome(contact?.name ?? "");
    setEmail(contact?.email ?? "");
    setCpf(cpfOf(contact));
    setTitulo("");
    setCampos({});
    setTouched(false);
  }, [open, contact]);
  useEffect(() => {
    if (modeloId === "" && templates.data?.length) setModeloId((templates.data.find((m) => m.padrao) ?? templates.data[0]).id);
  }, [templates.data, modeloId]);

  const template = templates.data?.find((m) => m.id === modeloId);
  const cpfOk = isValidCpf(cpf);
  const nomeOk = nome.trim().length >= 2;
  const preview = useMemo(
    () =>
      template
        ? fillContract(
            template.corpo,
            previewValues({
              nome,
              cpf,
              email,
              telefone: contact?.number ?? contact?.lid ?? "",
              campos,
              settings: settings.data,
              now: new Date(),
            }),
          )
        : "",
    [template, campos, nome, cpf, email, contact, settings.data],
  );

  const submit = () => {
    setTouched(true);
    if (!cpfOk || !nomeOk) return;
    create.mutate(
      {
        ticketId,
        nome: nome.trim(),
        email: email.trim(),
        cpf,
        titulo: titulo.trim() || undefined,
        modeloId: modeloId || undefined,
        campos,
      },
      {
        onSuccess: () => {
          toastSuccess(t("contracts.toasts.sent"));
          onClose();
        },
        onError: (err) => toastError(err),
      },
    );
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="new-contract-title">
      <DialogTitle id="new-contract-title">{t("contracts.newContract")}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" } }}>
          <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
            <TextField
              select
              size="small"
              label={t("contracts.form.template")}
              value={modeloId}
              onChange={(e) => setModeloId(Number(e.target.value))}
              slotProps={{ select: { inputProps: { "data-testid": "contract-template" } } }}
            >
              {(templates.data ?? []).map((m) => (
                <MenuItem key={m.id} value={m.id}>
                  {m.titulo}
                </MenuItem>
              ))}
            </TextField>
            <TextField size="small" label={t("contracts.form.titulo")} value={titulo} onChange={(e) => setTitulo(e.target.value)} />
            <TextField
              size="small"
              required
              label={t("contracts.form.nome")}
              value={nome}
              onChange={(e) => setNome(e.target.value)}
              error={touched && !nomeOk}
              helperText={touched && !nomeOk ? t("contracts.form.required") : " "}
              slotProps={{ htmlInput: { "data-testid": "contract-nome" } }}
            />
            <TextField
              size="small"
              type="email"
              label={t("contracts.form.email")}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              slotProps={{ htmlInput: { "data-testid": "contract-email" } }}
            />
            <TextField
              size="small"
              required
              label={t("contracts.form.cpf")}
              value={cpf}
              onChange={(e) => setCpf(e.target.value)}
              onBlur={() => cpfOk && setCpf(formatCpf(cpf))}
              error={(touched || cpf.replace(/\D/g, "").length >= 11) && !cpfOk}
              helperText={(touched || cpf.replace(/\D/g, "").length >= 11) && !cpfOk ? t("contracts.form.cpfInvalid") : " "}
              slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": "contract-cpf" } }}
            />
            {CONTRACT_FIELDS.map((k) => (
              <TextField
                key={k}
                size="small"
                label={t(`contracts.form.${k}`)}
                value={campos[k] ?? ""}
                onChange={(e) => setCampos({ ...campos, [k]: e.target.value })}
                slotProps={{ htmlInput: { "data-testid": `contract-${k}` } }}
              />
            ))}
            <Typography variant="caption" color="text.secondary">
              {t("contracts.form.hint")}
            </Typography>
          </Box>
          <Box>
            <Typography variant="subtitle2" gutterBottom>
              {t("contracts.templates.preview")}
            </Typography>
            <Box
              sx={{
                whiteSpace: "pre-wrap",
                fontSize: 13,
                border: 1,
                borderColor: "divider",
                borderRadius: 1,
                p: 1.5,
                maxHeight: { xs: 240, md: 460 },
                overflow: "auto",
                bgcolor: "background.default",
              }}
              data-testid="contract-preview"
            >
              {preview}
            </Box>
            <Typography variant="caption" color="text.secondary">
              {t("contracts.templates.variables", { list: CONTRACT_VARIABLES.map((v) => `{${v}}`).join(" ") })}
            </Typography>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("contracts.form.cancel")}</Button>
        <Button variant="contained" onClick={submit} disabled={create.isPending} data-testid="contract-send">
          {t("contracts.form.send")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
