import { addFeatureTexts } from "../../locales";

/** AI assist's texts (pt-BR first). */
const pt = {
  ai: {
    suggest: "Sugerir resposta",
    suggestions: "Sugestões",
    suggesting: "Pensando em respostas…",
    noSuggestions: "Nenhuma sugestão desta vez. Tente de novo.",
    pickHint: "Clique para colocar no campo e editar antes de enviar.",
    again: "Tentar de novo",
    close: "Fechar",
    summary: "Resumo",
    summaryTitle: "Resumo do atendimento",
    summarizing: "Resumindo a conversa…",
    copy: "Copiar",
    copied: "Resumo copiado.",
    transcription: "transcrição automática",
    aiNote: "Gerado por IA: confira antes de usar.",
  },
};
const en: typeof pt = {
  ai: {
    suggest: "Suggest reply",
    suggestions: "Suggestions",
    suggesting: "Thinking of replies…",
    noSuggestions: "No suggestion this time. Try again.",
    pickHint: "Click to put it in the input and edit before sending.",
    again: "Try again",
    close: "Close",
    summary: "Summary",
    summaryTitle: "Ticket summary",
    summarizing: "Summarising the conversation…",
    copy: "Copy",
    copied: "Summary copied.",
    transcription: "automatic transcription",
    aiNote: "AI-generated: check it before using it.",
  },
};
const es: typeof pt = {
  ai: {
    suggest: "Sugerir respuesta",
    suggestions: "Sugerencias",
    suggesting: "Pensando respuestas…",
    noSuggestions: "Ninguna sugerencia esta vez. Intente de nuevo.",
    pickHint: "Haga clic para ponerla en el campo y editarla antes de enviar.",
    again: "Intentar de nuevo",
    close: "Cerrar",
    summary: "Resumen",
    summaryTitle: "Resumen de la atención",
    summarizing: "Resumiendo la conversación…",
    copy: "Copiar",
    copied: "Resumen copiado.",
    transcription: "transcripción automática",
    aiNote: "Generado por IA: revíselo antes de usarlo.",
  },
};

addFeatureTexts({ "pt-BR": pt, en, es });
