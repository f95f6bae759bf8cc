/** The unit tier's first half (files.ts): `npm run test:unit` runs it beside the second. */
import { runUnitFiles } from './files.ts';

await runUnitFiles(0, 2);
