/**
 * LEV_DATA: a file or a folder of files, each a JSON array or NDJSON, holding
 * records of the type its name starts with (`birth...`, `death...`,
 * `marriage...`, `partnership...`), loaded into the embedded store at start
 * through the same pipeline as `lev-api load`.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { RecordDescription } from '../records/define.ts';
import type { RecordWriter } from '../model/store.ts';
import { LoadError, type LoadResult, fileSources, loadSources } from './loader.ts';
import { LevError } from '../errors.ts';

/** A data path the service cannot start from: a message for the operator, without a stack. */
export class DataError extends LevError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, { code: 'Data', cause: options?.cause });
  }
}

const DATA_FILE = /\.(json|ndjson|jsonl)$/i;

/** The record type a file holds, by its name; v0 files are skipped, since v0 is derived from v1. */
function typeOfFile(file: string, descriptions: readonly RecordDescription[]): RecordDescription | 'skip' | undefined {
  const name = basename(file).toLowerCase();
  if (/_v0\b|_v0\./.test(name)) return 'skip';
  return descriptions.find((description) => name.startsWith(description.name));
}

/** The files of `path` by record type, in name order. */
async function dataFiles(path: string, descriptions: readonly RecordDescription[]): Promise<Map<string, string[]>> {
  const info = await stat(path).catch(() => {
    throw new DataError(`${path}: no such file or folder`);
  });
  const files = info.isDirectory()
    ? (await readdir(path))
        .filter((name) => DATA_FILE.test(name))
        .sort()
        .map((name) => join(path, name))
    : [path];
  const byType = new Map<string, string[]>();
  for (const file of files) {
    const type = typeOfFile(file, descriptions);
    if (type === 'skip') continue;
    if (!type)
      throw new DataError(
        `${file}: the file name must start with the record type (${descriptions.map((d) => d.name).join(', ')})`,
      );
    byType.set(type.name, [...(byType.get(type.name) ?? []), file]);
  }
  if (byType.size === 0) throw new DataError(`${path}: no record files found`);
  return byType;
}

/**
 * Loads the records of `path`, and says what it loaded of each type; a file holding an invalid record stops
 * the start, naming it.
 */
export async function loadDataPath(
  writer: RecordWriter,
  path: string,
  descriptions: readonly RecordDescription[],
): Promise<Map<string, LoadResult>> {
  const loaded = new Map<string, LoadResult>();
  for (const [type, files] of await dataFiles(path, descriptions)) {
    try {
      loaded.set(type, await loadSources(writer, descriptions.find((d) => d.name === type)!, await fileSources(files)));
    } catch (error) {
      if (error instanceof LoadError) throw new DataError(error.message, { cause: error });
      throw error;
    }
  }
  return loaded;
}
