/**
 * How the pages, the OpenAPI document and the audit routes name record types in sentences, from
 * each description's `noun` (and `plural`): one rule, so that a new type is named everywhere by
 * its own description.
 */
import type { RecordDescription } from './define.ts';

type Named = Pick<RecordDescription, 'noun' | 'plural'>;

export const capitalised = (text: string) => (text ? text[0].toUpperCase() + text.slice(1) : text);

/** "civil partnerships": the description's plural, or its noun with an s. */
export const pluralOf = (description: Named) => description.plural ?? `${description.noun}s`;

/** The words in a list: "birth, death or marriage" (`last` 'or'), "births, deaths and marriages" (`last` 'and'). */
export function inWords(words: readonly string[], last: 'and' | 'or'): string {
  if (words.length < 2) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;
}
