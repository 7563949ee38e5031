/** AI assist for agents (when an admin turned it on): reply suggestions, summaries, voice-note transcriptions. */
export { useAiEnabled } from "./api/ai";
export { AiSuggestButton } from "./components/AiSuggestButton";
export { AiSummaryButton, AiSummaryPanel } from "./components/AiSummary";
