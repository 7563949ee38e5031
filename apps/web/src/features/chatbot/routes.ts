import type { PageRoute } from "../../lib/features";

export const chatbotRoutes: PageRoute[] = [{ path: "/ChatBot", page: () => import("./components/ChatBotPage"), admin: true }];
