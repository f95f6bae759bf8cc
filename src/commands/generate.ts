import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Command } from './command.ts';
import { DEFAULT_FIRST_ID, checkWindow, datesOf, generateRecords } from '../generate/records.ts';
import { parseDay } from '../generate/days.ts';
import { isIsoDate } from '../records/dates.ts';
import type { RecordDescription } from '../records/define.ts';
import { parseArguments } from './arguments.ts';
import { UsageError } from '../errors.ts';

/** Every described type: the built-in ones have builders tuned by hand, a newer one is made from its description. */
const typeNames = (descriptions: readonly RecordDescription[]) => descriptions.map((record) => record.name);
const DEFAULT_SEED = 'lev';
/** Lines are gathered into chunks of about this many characters before each write. */
const CHUNK = 1 << 17;

interface Options {
  type: RecordDescription;
  count: number;
  seed: string;
  out?: string;
  firstId: number;
  days?: readonly [number, number];
}

const wholeNumber = (name: string, value: string): number => {
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number))
    throw new UsageError(`--${name} must be a whole number, 0 or more (got '${value}')`);
  return number;
};

function parse(args: string[], descriptions: readonly RecordDescription[]): Options {
  const { values } = parseArguments(args, {
    type: { type: 'string' },
    count: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string', short: 'o' },
    'first-id': { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  });
  if (values.type === undefined) throw new UsageError(`--type is required`);
  const description = descriptions.find((record) => record.name === values.type);
  if (!description)
    throw new UsageError(`--type must be one of ${typeNames(descriptions).join(', ')} (got '${values.type}')`);
  if (values.count === undefined) throw new UsageError(`--count is required`);
  const count = wholeNumber('count', values.count);
  const firstId = values['first-id'] === undefined ? DEFAULT_FIRST_ID : wholeNumber('first-id', values['first-id']);
  if (!Number.isSafeInteger(firstId + count))
    throw new UsageError('--first-id plus --count goes beyond the largest id this service can hold');
  if (values.out === '') throw new UsageError('--out needs a file name');
  const days = window(description, values.from, values.to);
  return { type: description, count, seed: values.seed ?? DEFAULT_SEED, out: values.out, firstId, days };
}

/**
 * `--from` and `--to`: the days the records' own events fall on, within the type's range (either
 * end may be left to it), for a file of one week's or month's registrations. What a window may be
 * is records.ts's rule (checkWindow); only the dates' form is the command's.
 */
function window(
  description: RecordDescription,
  from: string | undefined,
  to: string | undefined,
): readonly [number, number] | undefined {
  if (from === undefined && to === undefined) return undefined;
  const { days } = datesOf(description);
  const day = (name: string, value: string | undefined, otherwise: number) => {
    if (value === undefined) return otherwise;
    if (!isIsoDate(value)) throw new UsageError(`--${name} must be a date, YYYY-MM-DD (got '${value}')`);
    return parseDay(value);
  };
  const asked: [number, number] = [day('from', from, days[0]), day('to', to, days[1])];
  try {
    return checkWindow(description, asked);
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(`--from and --to: ${error.message}`);
    throw error;
  }
}

/**
 * Writes a chunk, waiting for 'drain' when the stream says it is full; fails
 * if the stream fails meanwhile.
 */
function write(stream: Writable, chunk: string, failure: () => Error | undefined): Promise<void> | undefined {
  const failed = failure();
  if (failed) throw failed;
  if (stream.write(chunk)) return undefined;
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off('drain', onDrain);
      stream.off('error', done);
      stream.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(failure() ?? new Error('output closed before all records were written'));
    stream.on('drain', onDrain);
    stream.once('error', done);
    stream.once('close', onClose);
  });
}

export const generateCommand: Command = {
  summary: 'Write synthetic registrations as NDJSON (one v1 record a line), the same for the same seed',
  usage: (descriptions) =>
    `lev-api generate --type ${typeNames(descriptions).join('|')} --count N [--seed S] [--out FILE] ` +
    '[--first-id ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD]',
  async run(args, _env, descriptions) {
    const options = parse(args, descriptions);
    const started = process.hrtime.bigint();
    const toFile = options.out !== undefined;
    const stream: Writable = toFile ? createWriteStream(options.out!, { highWaterMark: 1 << 20 }) : process.stdout;

    let error: Error | undefined;
    const onError = (e: Error) => {
      error ??= e;
    };
    stream.on('error', onError);
    const failure = () => error;

    let written = 0;
    let stoppedByReader = false;
    try {
      let chunk = '';
      for (const record of generateRecords(options.type, options)) {
        chunk += `${JSON.stringify(record)}\n`;
        written++;
        if (chunk.length >= CHUNK) {
          const pending = write(stream, chunk, failure);
          chunk = '';
          if (pending) await pending;
        }
      }
      if (chunk) await write(stream, chunk, failure);
      if (toFile) {
        await new Promise<void>((resolve, reject) => {
          stream.once('error', reject);
          stream.end(() => resolve());
        });
      }
      if (error) throw error;
    } catch (e) {
      // A reader that stops early (`| head`) is not a failure of the generator.
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') stoppedByReader = true;
      else {
        if (toFile) stream.destroy();
        throw e;
      }
    }

    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const where = toFile ? ` to ${options.out}` : '';
    if (stoppedByReader)
      console.error(`stopped after ${written} ${options.type.name} records: the reader closed the output`);
    else console.error(`generated ${options.count} ${options.type.name} records${where} in ${seconds.toFixed(1)} s`);
    return 0;
  },
};
