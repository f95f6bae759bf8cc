/**
 * The built-in record types, their scenario files and their views, read once for the tests that
 * import them: the service's entry points read their own (`loadBuiltInTypes`) and pass them in.
 */
import type { ServiceTypes } from '../src/backend/open.ts';
import {
  type Scenario,
  type SearchableScenario,
  isSearchable,
  loadScenarioFiles,
  scenariosOf,
} from '../src/mock/dataset.ts';
import type { RecordDescription } from '../src/records/define.ts';
import { loadRecordTypes } from '../src/records/index.ts';
import { viewsOf } from '../src/records/views.ts';

export const builtInTypes = await loadRecordTypes();
export const builtInScenarios = await loadScenarioFiles();
/** What `serve` and `openBackend` are given for the built-in types. */
export const builtInServiceTypes: ServiceTypes = { descriptions: builtInTypes, scenarios: builtInScenarios };
export const views = viewsOf(builtInTypes);

/** Every scenario of the built-in types, type by type in their files' order. */
export const builtInScenarioList: readonly Scenario[] = builtInTypes.flatMap((description) =>
  scenariosOf(description.name, builtInScenarios),
);
/** Those an exact search finds: the README's table of scenarios. */
export const searchableScenarios: readonly SearchableScenario[] = builtInScenarioList.filter(isSearchable);
/** Those with a close-match query: the README's table of close matches. */
export const closeMatchScenarios = builtInScenarioList.filter(
  (scenario): scenario is Scenario & Required<Pick<Scenario, 'suggestion'>> => scenario.suggestion !== undefined,
);
/** Those no exact search finds (one needs forenames), shown by their close match alone. */
export const closeMatchOnlyScenarios: readonly Scenario[] = builtInScenarioList.filter(
  (scenario) => !isSearchable(scenario),
);

/** The built-in type named `name`. */
export function builtInType(name: string): RecordDescription {
  const found = builtInTypes.find((description) => description.name === name);
  if (!found) throw new Error(`no built-in record type ${name}`);
  return found;
}
