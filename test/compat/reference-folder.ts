/**
 * The published interface of the existing service, read-only in ../shared/reference beside the
 * repository. The tests that compare with it skip where it is absent, except under CI=true, where
 * it is laid beside the clone: there its absence fails the run, as a missing browser does
 * (test/ui/browser.ts), rather than passing with nothing compared.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REFERENCE = resolve(fileURLToPath(new URL('../../', import.meta.url)), '../shared/reference');

/** Why a test reading this part of the reference cannot run here, or false when it can. */
export function referenceMissing(path: string): string | false {
  if (existsSync(path)) return false;
  const reason = `${path} is absent`;
  if (process.env.CI === 'true')
    assert.fail(`CI=true, but the tests comparing with the existing service cannot run: ${reason}`);
  return reason;
}
