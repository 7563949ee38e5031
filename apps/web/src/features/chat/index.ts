/** One ticket's conversation: the messages, the input (text, files, quick answers, recorded audio), live updates. */
export { useChatLive } from "./api/messages";
export { MessageInput } from "./components/MessageInput";
export { MessagesList } from "./components/MessagesList";
