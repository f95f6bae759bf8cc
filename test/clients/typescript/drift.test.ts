/**
 * The client's committed types are those the served OpenAPI document generates: a change to the API
 * regenerates them.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { clientTypes } from '../../../clients/typescript/scripts/openapi-types.ts';
import { servedDocument } from '../../../clients/typescript/scripts/served-document.ts';

test(
  'clients/typescript/src/schema.ts is what the served /openapi.json generates (else: npm run generate -w ' +
    '@lev-api/client)',
  async () => {
    const committed = await readFile(new URL('../../../clients/typescript/src/schema.ts', import.meta.url), 'utf8');
    const generated = await clientTypes(await servedDocument());
    assert.ok(generated.includes('"/v1/verification/birth"'), 'the generated types name the verification routes');
    assert.equal(committed, generated);
  },
);
