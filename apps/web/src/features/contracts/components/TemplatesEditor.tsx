import "../i18n";
import {
  CONTRACT_VARIABLES,
  type ContractTemplate,
  type ContractValues,
  companyFromSettings,
  contractDate,
  fillContract,
} from "@balcao/contract";
import AddIcon from "@mui/icons-material/Add";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { toastError, toastSuccess } from "../../../lib/toast";
import { useContractSettings, useDeleteTemplate, useSaveTemplate, useTemplates } from "../api/contracts";

/**
 * What the preview fills the variables with: a sample customer, through the same filling as the
 * PDF; the provider is the one configured (Configurações → Dados da empresa), and where it is not,
 * the blank the PDF prints.
 */
const SAMPLE: ContractValues = {
  nome: "Maria da Silva",
  cpf: "529.982.247-25",
  email: "maria@exemplo.com.br",
  telefone: "5511987654321",
  campos: { endereco: "Rua das Flores, 10 — Centro", plano: "Fibra 500 Mega", valor: "R$ 99,90" },
  witnesses: [
    { nome: "Testemunha 1", cpf: "111.444.777-35" },
    { nome: "Testemunha 2", cpf: "123.456.789-09" },
  ],
  data: contractDate(new Date(), "America/Sao_Paulo"),
};

/** Admins' template editor: the list, the title and body with `{variables}`, and the live preview beside it. */
export function TemplatesEditor() {
  const { t } = useTranslation();
  const templates = useTemplates();
  const settings = useContractSettings();
  const save = useSaveTemplate();
  const remove = useDeleteTemplate();
  const [selected, setSelected] = useState<ContractTemplate | "new" | null>(null);
  const [titulo, setTitulo] = useState("");
  const [corpo, setCorpo] = useState("");
  const [padrao, setPadrao] = useState(false);
  const [confirm, setConfirm] = useState(false);

  useEffect(() => {
    if (selected === null && templates.data?.length) setSelected(templates.data[0]);
  }, [templates.data, selected]);
  useEffect(() => {
    if (selected === "new") {
      setTitulo("");
      setCorpo("");
      setPadrao(false);
    } else if (selected) {
      setTitulo(selected.titulo);
      setCorpo(selected.corpo);
      setPadrao(selected.padrao);
    }
  }, [selected]);
  const empresa = useMemo(() => companyFromSettings(settings.data ?? {}), [settings.data]);
  const preview = useMemo(() => fillContract(corpo, { ...SAMPLE, empresa }), [corpo, empresa]);
  const current = selected && selected !== "new" ? selected : undefined;

  return (
    <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "240px 1fr 1fr" }, alignItems: "start" }}>
      <Paper variant="outlined">
        <List dense disablePadding>
          {(templates.data ?? []).map((m) => (
            <ListItemButton key={m.id} selected={current?.id === m.id} onClick={() => setSelected(m)}>
              <ListItemText primary={m.titulo} />
              {m.padrao && <Chip size="small" label={t("contracts.templates.isDefault")} />}
            </ListItemButton>
          ))}
          {templates.data?.length === 0 && <Typography sx={{ p: 2 }}>{t("contracts.templates.empty")}</Typography>}
        </List>
        <Box sx={{ p: 1 }}>
          <Button fullWidth startIcon={<AddIcon />} onClick={() => setSelected("new")}>
            {t("contracts.templates.new")}
          </Button>
        </Box>
      </Paper>
      <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
        <Typography variant="subtitle1">{current ? t("contracts.templates.edit") : t("contracts.templates.new")}</Typography>
        <TextField size="small" label={t("contracts.templates.titulo")} value={titulo} onChange={(e) => setTitulo(e.target.value)} />
        <TextField
          label={t("contracts.templates.corpo")}
          value={corpo}
          onChange={(e) => setCorpo(e.target.value)}
          multiline
          minRows={14}
          maxRows={28}
          slotProps={{ htmlInput: { style: { fontFamily: "monospace", fontSize: 13 } } }}
        />
        <Typography variant="caption" color="text.secondary">
          {t("contracts.templates.variables", { list: CONTRACT_VARIABLES.map((v) => `{${v}}`).join(" ") })}
        </Typography>
        <FormControlLabel
          control={<Switch checked={padrao} disabled={current?.padrao} onChange={(e) => setPadrao(e.target.checked)} />}
          label={t("contracts.templates.padrao")}
        />
        <Box sx={{ display: "flex", gap: 1 }}>
          <Button
            variant="contained"
            disabled={!titulo.trim() || !corpo.trim() || save.isPending}
            onClick={() =>
              save.mutate(
                { id: current?.id, body: { titulo, corpo, padrao } },
                {
                  onSuccess: (m) => {
                    toastSuccess(t("contracts.toasts.templateSaved"));
                    setSelected(m);
                  },
                  onError: toastError,
                },
              )
            }
          >
            {t("contracts.templates.save")}
          </Button>
          {current && !current.padrao && (
            <Button color="error" onClick={() => setConfirm(true)}>
              {t("contracts.templates.delete")}
            </Button>
          )}
        </Box>
      </Box>
      <Box>
        <Typography variant="subtitle1" gutterBottom>
          {t("contracts.templates.preview")}
        </Typography>
        {settings.isSuccess && !(empresa.nome && empresa.cnpj && empresa.endereco) && (
          <Alert severity="info" sx={{ mb: 1 }} data-testid="template-company-unset">
            {t("contracts.templates.companyUnset")}
          </Alert>
        )}
        <Paper
          variant="outlined"
          sx={{ p: 2, whiteSpace: "pre-wrap", fontSize: 13, maxHeight: 560, overflow: "auto", fontFamily: "Georgia, serif" }}
          data-testid="template-preview"
        >
          {titulo && (
            <Typography variant="h6" sx={{ fontFamily: "inherit", mb: 1 }}>
              {titulo}
            </Typography>
          )}
          {preview}
        </Paper>
      </Box>
      <ConfirmDialog
        open={confirm}
        title={t("contracts.templates.confirmDelete")}
        busy={remove.isPending}
        onConfirm={() =>
          current &&
          remove.mutate(current.id, {
            onSuccess: () => {
              toastSuccess(t("contracts.toasts.templateDeleted"));
              setSelected(null);
            },
            onError: toastError,
            onSettled: () => setConfirm(false),
          })
        }
        onClose={() => setConfirm(false)}
      />
    </Box>
  );
}
