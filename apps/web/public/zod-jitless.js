// zod compiles object parsers with `new Function` when it may, deciding when each schema is built.
// The app's Content-Security-Policy allows no eval, so zod is told before it loads (it reads this
// global when its module is evaluated, ahead of the bundles that build the schemas).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
