/** The simulator page, served at /simulator (see modules/connections/simulator.routes.ts). */
export const SIMULATOR_PAGE = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Simulador</title></head><body>Simulador</body></html>`;
