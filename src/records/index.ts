/**
 * The record types the service serves: one description a file in `types/` (`<type>.ts`, exporting
 * what `defineRecord()` made), found by its file, so a new type is its file alone. Listed by the
 * `order` each declares (birth, death, marriage, partnership), then any without one by name: routes,
 * documents and pages list them so, whatever order the file system gives.
 */
import { byCodeUnit, importFolder, soleExport, sourceFolder } from '../module-folder.ts';
import { type RecordDescription, isDefinedRecord } from './define.ts';

/**
 * Sorted by their `order`, those without one last, then by name (by code unit); two descriptions of one name
 * are refused.
 */
export function inOrder(descriptions: readonly RecordDescription[]): RecordDescription[] {
  const rank = (d: RecordDescription) => d.order ?? Number.POSITIVE_INFINITY;
  const sorted = [...descriptions].sort((a, b) => rank(a) - rank(b) || byCodeUnit(a.name, b.name));
  const twice = sorted.find((d, i) => i > 0 && sorted[i - 1].name === d.name);
  if (twice) throw new Error(`two record descriptions are named '${twice.name}'`);
  return sorted;
}

/** The descriptions of a folder's files, one a file (what `defineRecord()` made), in their order (`inOrder`). */
export async function readDescriptions(folder: URL): Promise<RecordDescription[]> {
  const modules = await importFolder(folder);
  return inOrder(modules.map((module) => soleExport(module, isDefinedRecord, 'record descriptions')));
}

/**
 * The built-in record types (the files of `types/`), in the order routes and documents list them: read by the
 * entry points, once.
 */
export const loadRecordTypes = (): Promise<RecordDescription[]> => readDescriptions(sourceFolder('records/types'));
