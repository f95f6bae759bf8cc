/**
 * The built-in record types, their scenario files and their views, read once for the tests that
 * import them: the service's entry points read their own (`loadBuiltInTypes`) and pass them in.
 */
import type { ServiceTypes } from '../src/backend/open.ts';
import { loadScenarioFiles } from '../src/mock/dataset.ts';
import type { RecordDescription } from '../src/records/define.ts';
import { loadRecordTypes } from '../src/records/index.ts';
import { viewsOf } from '../src/records/views.ts';

export const builtInTypes = await loadRecordTypes();
export const builtInScenarios = await loadScenarioFiles();
/** What `serve` and `openBackend` are given for the built-in types. */
export const builtInServiceTypes: ServiceTypes = { descriptions: builtInTypes, scenarios: builtInScenarios };
export const views = viewsOf(builtInTypes);

/** The built-in type named `name`. */
export function builtInType(name: string): RecordDescription {
  const found = builtInTypes.find((description) => description.name === name);
  if (!found) throw new Error(`no built-in record type ${name}`);
  return found;
}
