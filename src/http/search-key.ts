/**
 * The search key a search's parameters give: the names normalised as storage normalises them,
 * and v0's forenames given word by word joined.
 */
import { badRequest } from '../errors.ts';
import { normaliseName } from '../records/normalise.ts';
import type { CompiledView } from '../render/view.ts';
import type { SearchKey } from '../model/records.ts';

type Query = Record<string, string | undefined>;

/**
 * The forenames searched for: the `forenames` parameter or, in v0, its words given one by one.
 * Which of the two a query gives, and that the words hold a letter or digit, its schema has
 * settled (parameters.ts, forenameRules).
 */
function forenamesOf(view: CompiledView, query: Query): string {
  const { forenames, forenameParts } = view.query;
  const given = query[forenames];
  if (given !== undefined || !forenameParts) return given ?? '';
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
