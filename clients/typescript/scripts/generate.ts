/**
 * Writes src/schema.ts from the document the service serves: this repository's, built in this
 * process (mock settings, nothing listening), or, given a URL, a running service's.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { clientTypes } from './openapi-types.ts';
import { servedDocument } from './served-document.ts';

const url = process.argv[2];
const document = url ? await (await fetch(url)).json() : await servedDocument();
const target = fileURLToPath(new URL('../src/schema.ts', import.meta.url));
await writeFile(target, await clientTypes(document));
console.log(`wrote ${target}`);
