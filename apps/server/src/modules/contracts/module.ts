import { BrandingStore } from "../settings/branding.js";
import type { ModuleHost } from "../../module-host.js";
import { contractRoutes } from "./routes.js";
import { type ContractDeps, contractFiles, GENERATE_JOB, MAIL_JOB, runGenerate, runMail } from "./service.js";
import { ensureDefaultTemplate } from "./templates.js";

/** What the contracts' jobs and routes use (tests run a job again with the same). */
export function contractDepsOf(host: Pick<ModuleHost, "conv" | "clock" | "jobs">): ContractDeps {
  const { conv, clock, jobs } = host;
  return {
    conv,
    clock,
    wakeRunner: () => jobs.wake(),
    files: contractFiles(conv.media.storage),
    branding: new BrandingStore(conv.media.storage),
  };
}

/** Contracts: the PDF and the link on the job runner, the signed copy by e-mail, the default template, the routes. */
export async function register(host: ModuleHost): Promise<void> {
  const { ctx, jobs } = host;
  const deps = contractDepsOf(host);
  jobs.register<{ contractId: number }>(GENERATE_JOB, (p) => runGenerate(deps, p.contractId));
  jobs.register<{ contractId: number }>(MAIL_JOB, (p) => runMail(deps, p.contractId));
  await ensureDefaultTemplate(ctx.db);
  host.routes(contractRoutes(deps, host.guard));
}
