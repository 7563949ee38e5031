/** The types of scripts/apt.mjs, for the TypeScript that runs it (apps/server/test/poppler.ts). */
export declare const APT_LOCK_TIMEOUT_S: number;
export declare const APT_LOCK_WAIT: string[];
export declare function aptInstallCommands(packages: string[], options: { asRoot: boolean; installOptions?: string[] }): string[][];
export declare function runAptCommands(
  commands: string[][],
  options?: {
    run?: (argv: string[]) => number | { status: number; stderr?: string };
    sleep?: (ms: number) => void;
    now?: () => number;
    log?: (line: string) => void;
    timeoutMs?: number;
    retryMs?: number;
  },
): { argv: string[]; status: number } | undefined;
