import type { PageRoute } from "../../lib/features";

/** /contratos (001 §1; matching ignores case, so /Contratos too), admins only. */
export const contractsRoutes: PageRoute[] = [{ path: "/contratos", page: () => import("./components/ContractsPage"), admin: true }];
