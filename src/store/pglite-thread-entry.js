// The embedded database thread's entry point when the service runs from its TypeScript sources (the
// compiled service starts dist/store/pglite-thread.js itself). It is JavaScript because Node refuses
// a .ts file as a worker's entry, even with tsx loaded; and tsx reaches a worker through execArgv
// (`--import tsx`: npm run dev, tests) but not when registered in code (bin/lev-api.js's register(),
// when dist/ is stale). tsImport registers tsx for this import and its own imports only, so it works
// either way without clashing.
import { tsImport } from 'tsx/esm/api';

await tsImport('./pglite-thread.ts', import.meta.url);
