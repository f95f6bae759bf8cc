/**
 * The close-matches page over HTTP: for each of the mock's close-match scenarios, the record first
 * and a plain sentence for each detail in the words of its kind of match; a blocked candidate shows
 * only its number; the role and a link altered by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MatchKind } from '../../src/match/vocabulary.ts';
import { explain } from '../../src/ui/close-matches.ts';
import { sharedApp } from '../helper.ts';
import { builtInTypes as records, closeMatchScenarios } from '../record-types.ts';
import { signIn } from './sign-in.ts';

const app = sharedApp();

/** The page's form fields for a query: the date as day, month and year. */
function formOf(query: Readonly<Record<string, string>>, dateParam: string): URLSearchParams {
  const [year, month, day] = query[dateParam].split('-');
  return new URLSearchParams({
    submitted: '1',
    surname: query.surname,
    forenames: query.forenames,
    [`${dateParam}-day`]: day,
    [`${dateParam}-month`]: month,
    [`${dateParam}-year`]: year,
  });
}

/** Words each kind's sentence holds. */
const WORDS: Record<MatchKind, RegExp> = {
  exact: /is as registered/,
  normalised: /with different capitals, accents or punctuation/,
  'word-prefix': /is how .* begins/,
  swapped: /is registered as the (forenames|surname)/,
  nickname: /is another form of/,
  'sound-alike': /sounds like/,
  'day-month-swapped': /has the day and month the other way round/,
  spelling: /is a different spelling of/,
  'part-of-name': /is part of/,
  'near-date': /is close to/,
  'two-edits': /is spelt two letters differently from/,
  similar: /is spelt much like/,
  'loosely-similar': /is spelt a little like/,
  'year-digit': /with a digit of the year different/,
  'two-digits': /differs from .* in two digits/,
  'within-month': /is within a month of/,
  missing: /none is registered/,
  different: /does not match/,
};

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

describe('the close-matches page', () => {
  // Each type's date parameter, from its description: a type added since is tested as the others are.
  const dateParams: Record<string, string> = Object.fromEntries(records.map((d) => [d.name, d.search.dateParam]));

  for (const scenario of closeMatchScenarios) {
    test(`${scenario.type} ${scenario.id}: ${scenario.shows}`, async () => {
      const url = app().url;
      const cookie = await signIn(url, [scenario.type, 'suggest'], 'close-matches-test');
      const { query, matched } = scenario.suggestion!;
      const page = await fetch(`${url}/ui/${scenario.type}/close-matches?${formOf(query, dateParams[scenario.type])}`, {
        headers: { cookie },
      });
      assert.equal(page.status, 200);
      const html = await page.text();
      const body = text(html);
      const first = /<tbody[^>]*>[\s\S]*?<\/tr>/.exec(html)?.[0] ?? '';
      assert.match(first, new RegExp(`/ui/${scenario.type}/${scenario.id}"`), 'the record first');
      const row = text(first);
      assert.match(row, new RegExp(`Surname: .*${WORDS[matched.surname].source}`));
      assert.match(row, new RegExp(`Forenames: .*${WORDS[matched.forenames].source}`));
      assert.match(row, WORDS[matched[dateParams[scenario.type]]]);
      assert.equal(
        row.match(/: (very strong|strong|some|weak) evidence (for|against)|: hardly evidence either way/g)?.length,
        3,
        'how much each detail counts, in words',
      );
      assert.match(body, /You searched for/);
    });
  }

  test('every kind has its sentence, naming what was given and what is registered', () => {
    assert.equal(
      explain('Forenames', 'sound-alike', 'Kathryn', 'Catherine', 'Surname'),
      'Forenames: Kathryn sounds like Catherine',
    );
    assert.equal(
      explain('Surname', 'swapped', 'Morgan', 'Elliot', 'Forenames'),
      'Surname: Morgan is registered as the forenames',
    );
    for (const [kind, words] of Object.entries(WORDS))
      assert.match(explain('Surname', kind as MatchKind, 'A', 'B', 'Forenames'), words, kind);
  });

  test('a blocked candidate shows only its system number', async () => {
    const url = app().url;
    const cookie = await signIn(url, ['birth', 'suggest'], 'close-matches-test');
    const page = await fetch(
      `${url}/ui/birth/close-matches?` +
        `${formOf({ surname: 'Carow', forenames: 'Felix', dateOfBirth: '2005-11-02' }, 'dateOfBirth')}`,
      { headers: { cookie } },
    );
    const body = text(await page.text());
    assert.match(body, /999999020/);
    assert.match(body, /This registration is blocked: only its system number can be shown/);
    assert.doesNotMatch(body, /sounds like Carrow|Carrow/);
  });

  test('without the suggest role none is offered; a link altered by hand goes back to the form', async () => {
    const url = app().url;
    const form = formOf({ surname: 'Pryce', forenames: 'Bill', dateOfBirth: '2011-05-09' }, 'dateOfBirth');
    // The plain mock lets any identified caller ask; the pages' own rule offers it with the role.
    const withRole = await signIn(url, ['birth', 'suggest'], 'close-matches-test');
    const altered = await fetch(`${url}/ui/birth/close-matches?surname=Pryce`, {
      headers: { cookie: withRole },
      redirect: 'manual',
    });
    assert.deepEqual([altered.status, altered.headers.get('location')], [303, '/ui/birth/search']);
    const withoutRole = await signIn(url, ['birth'], 'close-matches-test');
    const search = await fetch(`${url}/ui/birth/search?${form}`, { headers: { cookie: withoutRole } });
    const html = await search.text();
    assert.match(html, /No birth registration matches those details/);
    assert.doesNotMatch(html, /href="\/ui\/birth\/close-matches/);
    const offered = await fetch(`${url}/ui/birth/search?${form}`, { headers: { cookie: withRole } });
    assert.match(await offered.text(), /href="\/ui\/birth\/close-matches\?/);
  });
});
