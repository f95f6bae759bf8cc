/**
 * The typed client with a fifth record type described only in a test fixture: its types generated
 * from the document a service with that type serves list it in RECORD_TYPES, and its record,
 * search, verification and close-match types resolve, with no edit to the client's own code.
 * Type-checked by tsc in a copy of the client's sources (under test-output/).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { clientTypes, recordTypesOf } from '../../../clients/typescript/scripts/openapi-types.ts';
import { buildApp } from '../../../src/app.ts';
import { openMemoryBackend } from '../../../src/backend/memory.ts';
import { testfixture } from '../../fixtures/testfixture/description.ts';
import { builtInTypes } from '../../record-types.ts';
import { testConfig } from '../../helper.ts';

const CLIENT = fileURLToPath(new URL('../../../clients/typescript/', import.meta.url));
const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

async function servedWithFixture(): Promise<Record<string, any>> {
  const descriptions = [...builtInTypes, testfixture];
  const backend = await openMemoryBackend(descriptions, { keep: 10 });
  const app = await buildApp(testConfig(), { backend, descriptions });
  try {
    return (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  } finally {
    await app.close();
    await backend.close();
  }
}

const CHECK =
  `
import { RECORD_TYPES, type RecordOf, type RecordType, type SearchParamsOf, type SuggestionOf, type ` +
  `VerificationParamsOf } from './client.ts';
type Typed<X> = [X] extends [never] ? false : true;
export const type: RecordType = 'testfixture';
export const listed: boolean = RECORD_TYPES.includes('testfixture');
export const record: Typed<RecordOf<'testfixture'>> = true;
export const search: Typed<SearchParamsOf<'testfixture'>> = true;
export const verification: Typed<VerificationParamsOf<'testfixture'>> = true;
export const candidate: Typed<SuggestionOf<'testfixture'>['score']> = true;
export const id: RecordOf<'testfixture'>['id'] = 1;
// @ts-expect-error: not a type the document lists
export const unknown: RecordType = 'divorce';
`;

test('a fifth record type the service serves is typed in the client from the generated schema alone', {
  timeout: 120_000,
}, async (t) => {
  const document = await servedWithFixture();
  assert.deepEqual(recordTypesOf(document), [...builtInTypes.map((d) => d.name), 'testfixture']);
  const copy = fileURLToPath(new URL('../../../test-output/client-fifth-type/', import.meta.url));
  await rm(copy, { recursive: true, force: true });
  await mkdir(copy, { recursive: true });
  t.after(() => rm(copy, { recursive: true, force: true }));
  await cp(`${CLIENT}src`, `${copy}src`, { recursive: true });
  await cp(`${CLIENT}tsconfig.json`, `${copy}tsconfig.json`);
  await writeFile(`${copy}src/schema.ts`, await clientTypes(document));
  await writeFile(`${copy}src/fifth-type-check.ts`, CHECK);
  const tsc = await promisify(execFile)(process.execPath, [TSC, '--noEmit', '-p', copy]).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  assert.equal(
    tsc,
    '',
    'the copy type-checks: testfixture is a RecordType with its record, search, verification and close-match types',
  );
});
