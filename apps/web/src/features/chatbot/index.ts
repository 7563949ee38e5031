/** Bot content (admins): the /ChatBot screen with chat entries and audio entries; the audio list agents send from. */
export { chatbotMenu } from "./menu";
export { chatbotRoutes } from "./routes";
export { useAudioEntries } from "./api/bot-content";
