/** The unit tier's second half (files.ts): `npm run test:unit` runs it beside the first. */
import { runUnitFiles } from './files.ts';

await runUnitFiles(1, 2);
