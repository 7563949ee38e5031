import "../i18n";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type FormEvent, type ReactNode, useState } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/http";
import { PageHeader } from "../../../components/PageHeader";
import { toastError, toastSuccess } from "../../../lib/toast";
import { examples, SUBMIT_DELAY_MS, sendTest } from "../api";
import { usePublicUrl } from "../../settings";

function Code({ children, testId }: { children: string; testId?: string }) {
  return (
    <Box
      component="pre"
      data-testid={testId}
      sx={{
        m: 0,
        p: 1.5,
        borderRadius: 1,
        bgcolor: (th) => (th.palette.mode === "dark" ? "grey.900" : "grey.100"),
        color: "text.primary",
        fontSize: 13,
        overflowX: "auto",
        whiteSpace: "pre",
        border: 1,
        borderColor: "divider",
      }}
    >
      <code>{children}</code>
    </Box>
  );
}

function Examples({ curl, js }: { curl: string; js: string }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState(0);
  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        {t("doc.examples")}
      </Typography>
      <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ minHeight: 36 }}>
        <Tab label="curl" sx={{ minHeight: 36 }} />
        <Tab label="JavaScript" sx={{ minHeight: 36 }} />
      </Tabs>
      <Code>{tab === 0 ? curl : js}</Code>
    </Box>
  );
}

/** The errors of a test send, from the catalogue (a wrong token is named as such, never as the user's session). */
function showError(err: unknown, t: TFunction) {
  if (err instanceof ApiError && (err.code === "ERR_INVALID_TOKEN" || err.status === 401)) return toastError(t("doc.invalidToken"));
  if (err instanceof ApiError && err.status === 429) {
    const seconds = (err as ApiError & { retryAfter?: string }).retryAfter ?? "60";
    return toastError(t("doc.rateLimited", { seconds }));
  }
  toastError(err);
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function TestForm({ kind }: { kind: "text" | "media" }) {
  const { t } = useTranslation();
  const [token, setToken] = useState("");
  const [number, setNumber] = useState("");
  const [body, setBody] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const ready = token.trim() !== "" && number.trim() !== "" && (kind === "text" ? body.trim() !== "" : file !== null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    try {
      await wait(SUBMIT_DELAY_MS);
      if (kind === "text") await sendTest(token, { number: number.trim(), body });
      else {
        const form = new FormData();
        form.append("number", number.trim());
        form.append("body", file?.name ?? "");
        if (file) form.append("medias", file);
        await sendTest(token, form);
      }
      toastSuccess(t("doc.sent"));
    } catch (err) {
      showError(err, t);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} component="form" onSubmit={submit} data-testid={`doc-form-${kind}`}>
      <Typography variant="subtitle1" fontWeight={600} gutterBottom>
        {t("doc.test")}
      </Typography>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 2 }}>
        <TextField
          label={t("doc.token")}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          required
          size="small"
          autoComplete="off"
          slotProps={{ htmlInput: { "data-testid": `doc-${kind}-token` } }}
        />
        <TextField
          label={t("doc.number")}
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          required
          size="small"
          placeholder="5585999998888"
          slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": `doc-${kind}-number` } }}
        />
        {kind === "text" ? (
          <TextField
            label={t("doc.body")}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            required
            multiline
            minRows={2}
            sx={{ gridColumn: "1 / -1" }}
            slotProps={{ htmlInput: { "data-testid": "doc-text-body" } }}
          />
        ) : (
          <Box sx={{ gridColumn: "1 / -1", display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
            <Button variant="outlined" component="label" startIcon={<AttachFileIcon />}>
              {t("doc.chooseFile")}
              <input hidden type="file" data-testid="doc-media-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            </Button>
            <Typography variant="body2" color="text.secondary" noWrap sx={{ minWidth: 0 }}>
              {file?.name ?? t("doc.noFile")}
            </Typography>
          </Box>
        )}
      </Box>
      <Box sx={{ display: "flex", justifyContent: "flex-end", mt: 2 }}>
        <Button
          type="submit"
          variant="contained"
          disabled={!ready || busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid={`doc-${kind}-send`}
        >
          {t("doc.send")}
        </Button>
      </Box>
    </Paper>
  );
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} data-testid={testId}>
      <Typography component="h2" variant="h6" fontWeight={700} gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** /doc: how outside systems send messages (document 001 §2), with a 'Teste de Envio' form for text and for media. */
export default function DocPage() {
  const { t } = useTranslation();
  // the public address (Configurações or PUBLIC_URL) outside systems call, else this page's
  const ex = examples(usePublicUrl().url);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", minHeight: 0, overflowY: "auto", flex: 1 }}>
      <PageHeader title={t("doc.title")} subtitle={t("doc.intro")} />
      <Box sx={{ px: { xs: 2, sm: 3 }, pb: 3, display: "flex", flexDirection: "column", gap: 2, maxWidth: 980 }}>
        <Section title={t("doc.rulesTitle")}>
          <Alert severity="info" sx={{ mb: 1 }} data-testid="doc-token-rule">
            {t("doc.tokenRule")}
          </Alert>
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="doc-number-rule">
            {t("doc.numberRule")}
          </Alert>
          <Typography variant="body2" paragraph>
            {t("doc.authRule")}
          </Typography>
          <Typography variant="subtitle2">{t("doc.endpoint")}</Typography>
          <Code testId="doc-endpoint">{`POST ${ex.url}`}</Code>
          <Typography variant="subtitle2" sx={{ mt: 2 }}>
            {t("doc.answers")}
          </Typography>
          <Box component="ul" sx={{ mt: 0.5, pl: 3, "& li": { mb: 0.5 } }}>
            {(["answerOk", "answerNumber", "answerToken", "answerRate"] as const).map((k) => (
              <Typography component="li" variant="body2" key={k}>
                {t(`doc.${k}`)}
              </Typography>
            ))}
          </Box>
          <Typography variant="body2" paragraph>
            {t("doc.history")}
          </Typography>
          <Typography variant="body2" paragraph>
            {t("doc.idempotency")}
          </Typography>
          <Link href="/api-docs" target="_blank" rel="noopener" variant="body2">
            {t("doc.openApi")}
          </Link>
        </Section>
        <Section title={t("doc.textTitle")} testId="doc-text">
          <Typography variant="body2">{t("doc.textHelp")}</Typography>
          <Examples curl={ex.textCurl} js={ex.textJs} />
          <TestForm kind="text" />
        </Section>
        <Section title={t("doc.mediaTitle")} testId="doc-media">
          <Typography variant="body2">{t("doc.mediaHelp")}</Typography>
          <Examples curl={ex.mediaCurl} js={ex.mediaJs} />
          <TestForm kind="media" />
        </Section>
      </Box>
    </Box>
  );
}
