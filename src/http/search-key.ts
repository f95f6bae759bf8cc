/**
 * The search key a search's parameters give: the names normalised as storage normalises them,
 * and v0's forenames given word by word joined.
 */
import { badRequest } from '../errors.ts';
import { normaliseName } from '../records/normalise.ts';
import { NAME_PATTERN } from './parameters.ts';
import type { CompiledView } from '../render/view.ts';
import type { SearchKey } from '../model/records.ts';

type Query = Record<string, string | undefined>;

const NAME = new RegExp(NAME_PATTERN, 'u');

/** The forenames searched for: the `forenames` parameter or, in v0, its words given one by one. */
function forenamesOf(view: CompiledView, query: Query): string {
  const { forenames, forenameParts } = view.query;
  const given = query[forenames];
  if (!forenameParts) return given ?? '';
  const [first] = forenameParts;
  const alternative = `'${forenames}' or '${first}' (with optional ${forenameParts
    .slice(1)
    .map((p) => `'${p}'`)
    .join(', ')})`;
  const partsGiven = forenameParts.some((part) => query[part] !== undefined);
  if (given !== undefined && partsGiven) throw badRequest(`Give either ${alternative}, not both`);
  if (given !== undefined) return given;
  if (!query[first]) throw badRequest(`Missing query parameter: give ${alternative}`);
  // The document's rule (parameters.ts, searchQueryRule): a letter or digit among the words, by the names' pattern.
  if (!forenameParts.some((part) => query[part] !== undefined && NAME.test(query[part]))) {
    throw badRequest(`Invalid query parameter '${first}': the forenames must contain at least one letter or digit`);
  }
  return forenameParts
    .map((part) => query[part])
    .filter(Boolean)
    .join(' ');
}

/** The search key a search's parameters give, its names normalised; a 400 naming a name with nothing to search by. */
export function searchKeyOf(view: CompiledView, query: Query): SearchKey {
  // v0 forenames may come word by word; the message then names the parameter the caller gave.
  const { forenames, forenameParts } = view.query;
  const names = {
    surname: view.query.surname,
    forenames: forenameParts && query[forenames] === undefined ? forenameParts[0] : forenames,
  };
  const key = {
    date: query[view.query.date] as string,
    surname: normaliseName(query[names.surname] as string),
    forenames: normaliseName(forenamesOf(view, query)),
  };
  for (const part of ['surname', 'forenames'] as const) {
    if (!key[part])
      throw badRequest(`Invalid query parameter '${names[part]}': it must contain at least one letter or digit`);
  }
  return key;
}
