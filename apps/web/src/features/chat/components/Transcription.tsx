import GraphicEqIcon from "@mui/icons-material/GraphicEq";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";

/** Under a customer's voice note: its text, marked 'transcrição automática'. Nothing until there is one. */
export function Transcription({ transcription }: { transcription?: string | null }) {
  const { t } = useTranslation();
  if (!transcription) return null;
  return (
    <Box sx={{ borderLeft: 3, borderColor: "divider", pl: 1, my: 0.5, maxWidth: 260 }} data-testid="message-transcription">
      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
        {transcription}
      </Typography>
      <Typography variant="caption" sx={{ opacity: 0.7, fontStyle: "italic", display: "flex", alignItems: "center", gap: 0.5 }}>
        <GraphicEqIcon sx={{ fontSize: 14 }} />
        {t("chat.transcription")}
      </Typography>
    </Box>
  );
}
