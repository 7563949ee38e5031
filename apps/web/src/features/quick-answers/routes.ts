import type { PageRoute } from "../../lib/features";

export const quickAnswersRoutes: PageRoute[] = [{ path: "/quickAnswers", page: () => import("./components/QuickAnswersPage") }];
