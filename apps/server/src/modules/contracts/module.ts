import type { BrandingStore } from "../settings/branding.js";
import type { ModuleHost } from "../module.js";
import { contractRoutes } from "./routes.js";
import { type ContractDeps, contractFiles, GENERATE_JOB, MAIL_JOB, runGenerate, runMail } from "./service.js";
import { ensureDefaultTemplate } from "./templates.js";

/** Contracts: the PDF and the link on the job runner, the signed copy by e-mail, the default template, the routes; answers its deps (tests run a job again with them). */
export async function register(host: ModuleHost, branding: BrandingStore): Promise<ContractDeps> {
  const { ctx, conv, jobs, clock } = host;
  const deps: ContractDeps = { conv, clock, wakeRunner: () => jobs.wake(), files: contractFiles(conv.media.storage), branding };
  jobs.register<{ contractId: number }>(GENERATE_JOB, (p) => runGenerate(deps, p.contractId));
  jobs.register<{ contractId: number }>(MAIL_JOB, (p) => runMail(deps, p.contractId));
  await ensureDefaultTemplate(ctx.db);
  host.routes(contractRoutes(deps, host.guard));
  return deps;
}
