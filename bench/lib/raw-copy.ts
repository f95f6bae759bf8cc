/**
 * A raw COPY of a file, the floor a load is compared with: each line into a one-column text table,
 * through psql's \copy, as CSV whose quote and delimiter are bytes the NDJSON never holds, so that
 * every line arrives whole and nothing is parsed (bench/load-against-copy.ts, bench/scale.ts).
 */
export const RAW_COPY_TABLE_COLUMNS = '(line text)';

/** psql's arguments for the raw COPY of `file` into `table` (made with RAW_COPY_TABLE_COLUMNS). */
export const rawCopyArgs = (url: string, table: string, file: string): string[] => [
  '-d',
  url,
  '-v',
  'ON_ERROR_STOP=1',
  '-c',
  `\\copy ${table} (line) from '${file.replace(/'/g, "''")}' with (format csv, quote e'\\x01', delimiter e'\\x02')`,
];
