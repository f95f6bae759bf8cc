/**
 * Command-line options, parsed by node:util's parseArgs and its mistakes told
 * in one line each, as a UsageError (exit 2), instead of the parser's own text.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { isIsoDate } from '../records/dates.ts';
import { UsageError } from '../errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The long name an argument spells (`--out`, `--out=x`, `-o`), or undefined when it is no option of these. */
function optionNamed(arg: string, options: Options): string | undefined {
  if (arg.startsWith('--')) {
    const name = arg.slice(2).split('=')[0];
    return Object.hasOwn(options, name) ? name : undefined;
  }
  if (/^-[^-]$/.test(arg)) return Object.entries(options).find(([, option]) => option.short === arg[1])?.[0];
  return undefined;
}

/**
 * A value that starts with '-' (`--count -5`, `--out -`) is the value of the string option before
 * it unless it is itself an option: Node's parser calls it ambiguous, when the value's own check
 * says better what is wrong with it.
 */
function joinDashedValues(args: readonly string[], options: Options): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === '--') {
      joined.push(...args.slice(index));
      break;
    }
    const name = optionNamed(arg, options);
    const next = args[index + 1];
    const takesValue = name !== undefined && options[name].type === 'string' && !arg.includes('=');
    if (
      takesValue &&
      next?.startsWith('-') &&
      next !== '--' &&
      optionNamed(next, options) === undefined &&
      !next.startsWith('--')
    ) {
      joined.push(`--${name}=${next}`);
      index++;
    } else joined.push(arg);
  }
  return joined;
}

/** The argument Node's parser names in its message ('--foo', 'x'). */
const named = (message: string) => /'([^']*)'/.exec(message)?.[1] ?? '';

export function parseArguments<T extends Options>(args: readonly string[], options: T, { positionals = false } = {}) {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinDashedValues(args, options),
      options,
      strict: true,
      allowPositionals: positionals,
      tokens: true,
    });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const name = named(message)
      .replace(/^-., /, '')
      .replace(/ <value>$/, '');
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const known = Object.keys(options);
      throw new UsageError(
        `unknown option ${name}` +
          (known.length
            ? `; the options are ${known.map((option) => `--${option}`).join(', ')}`
            : ': this command takes none'),
      );
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError(`unexpected argument '${name}'`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new UsageError(
        /does not take an argument/.test(message) ? `${name} takes no value` : `${name} needs a value`,
      );
    }
    throw new UsageError(message.split('\n')[0]);
  }
  // The parser keeps the last of a repeated option: `--type birth --type death` would load deaths.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || options[token.name].multiple) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given twice; give it once`);
    seen.add(token.name);
  }
  const { values, positionals: rest } = parsed;
  return { values, positionals: rest };
}

/** A date option's value, checked: the form (YYYY-MM-DD) and, that right, the day itself. */
export function dateOption(name: string, value: string | undefined): string | undefined {
  if (value === undefined || isIsoDate(value)) return value;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new UsageError(`--${name} ${value} is written right but is no day of the calendar`);
  throw new UsageError(`--${name} must be a date written YYYY-MM-DD, not '${value}'`);
}
