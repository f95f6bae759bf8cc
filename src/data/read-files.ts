/**
 * Reads `LEV_DATA`: a file or a folder of files, each a JSON array or NDJSON
 * (one JSON value a line), holding records of the type its name starts with
 * (`birth...`, `death...`, `marriage...`, `partnership...`). All is read and
 * checked before anything is stored, so a bad record leaves nothing loaded.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { StoredRecord } from '../store/record-store.ts';
import type { RecordType } from './entries.ts';
import { mayHoldEscapes, storableRecord } from './storable.ts';

export class DataError extends Error {
  override name = 'DataError';
}

const DATA_FILE = /\.(json|ndjson|jsonl)$/i;

/** The record type a file holds, by its name; v0 files are skipped, since v0 is derived from v1. */
export function typeOfFile(file: string, types: readonly RecordType[]): RecordType | 'skip' | undefined {
  const name = basename(file).toLowerCase();
  if (/_v0\b|_v0\./.test(name)) return 'skip';
  return types.find((type) => name.startsWith(type.description.name));
}

/** Entries with their 1-based position: line number for NDJSON, index for a JSON array. */
export function* entriesOf(text: string, file: string): Generator<{ position: string; value: unknown }> {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let values: unknown[];
    try {
      values = JSON.parse(text);
    } catch (error) {
      throw new DataError(`${file}: not valid JSON (${(error as Error).message})`);
    }
    for (let i = 0; i < values.length; i++) yield { position: `${file} item ${i + 1}`, value: values[i] };
    return;
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    try {
      yield { position: `${file}:${i + 1}`, value: JSON.parse(lines[i]) };
    } catch {
      throw new DataError(`${file}:${i + 1}: not valid JSON`);
    }
  }
}

export async function readRecordFiles(path: string, types: readonly RecordType[]): Promise<Map<string, StoredRecord[]>> {
  const info = await stat(path).catch(() => {
    throw new DataError(`${path}: no such file or folder`);
  });
  const files = info.isDirectory()
    ? (await readdir(path)).filter((name) => DATA_FILE.test(name)).sort().map((name) => join(path, name))
    : [path];
  const byType = new Map<string, Map<number, StoredRecord>>();
  for (const file of files) {
    const type = typeOfFile(file, types);
    if (type === 'skip') continue;
    if (!type) throw new DataError(`${file}: the file name must start with the record type (${types.map((t) => t.description.name).join(', ')})`);
    const records = byType.get(type.description.name) ?? new Map<number, StoredRecord>();
    byType.set(type.description.name, records);
    const text = await readFile(file, 'utf8');
    const escapes = mayHoldEscapes(text);
    for (const { position, value } of entriesOf(text, file)) {
      const stored = storableRecord(type, value, escapes);
      if ('reason' in stored) throw new DataError(`${position}: invalid ${type.description.name} record: ${stored.reason}`);
      records.set(stored.id, stored);
    }
  }
  if (byType.size === 0) throw new DataError(`${path}: no record files found`);
  return new Map([...byType].map(([name, records]) => [name, [...records.values()]]));
}
