import type { RecordReader } from '../model/store.ts';

/** `lookup` and `search` from a store's JSON reads. */
export const parsedReads = (
  reader: Pick<RecordReader, 'lookupJson' | 'searchJson'>,
): Pick<RecordReader, 'lookup' | 'search'> => ({
  async lookup(type, id) {
    const json = await reader.lookupJson(type, id);
    return json === undefined ? undefined : JSON.parse(json);
  },
  async search(type, key, limit) {
    const { records, ids, truncated } = await reader.searchJson(type, key, limit);
    return { records: records.map((json) => JSON.parse(json)), ids, truncated };
  },
});
