/**
 * Which party of a record the close-matches page explains: the one whose keys the API's own rule
 * (scoreKey) finds at the kinds the API reported, so that a match through a marriage's second party
 * names that party's names.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { candidateViews } from '../../src/ui/close-matches.ts';
import { builtInType } from '../record-types.ts';

const marriage = builtInType('marriage');
const record = {
  id: 555,
  dateOfMarriage: '2012-06-02',
  bride: { surname: 'Whitlock', forenames: 'Harriet' },
  groom: { surname: 'Penhallow', forenames: 'Edmund' },
  status: { blocked: false },
};
const candidate = (matched: Record<string, string>) => ({
  score: 0.97,
  matched,
  weights: { surname: 3, forenames: 3, dateOfMarriage: 9 },
  record,
});

describe('candidateViews', () => {
  test('names the second party when the match came through it', () => {
    const [view] = candidateViews(
      marriage,
      { surname: 'Pemhallow', forenames: 'Edmund', dateOfMarriage: '2012-06-02' },
      [candidate({ surname: 'spelling', forenames: 'exact', dateOfMarriage: 'exact' })],
    );
    assert.match(view.explanations[0], /Pemhallow is a different spelling of Penhallow/);
  });

  test("names the second party's forenames when only they differ", () => {
    const [view] = candidateViews(
      marriage,
      { surname: 'Penhallow', forenames: 'Edmond', dateOfMarriage: '2012-06-02' },
      [candidate({ surname: 'exact', forenames: 'sound-alike', dateOfMarriage: 'exact' })],
    );
    assert.match(view.explanations[0], /Surname: Penhallow is as registered/);
    assert.match(view.explanations[1], /Forenames: Edmond sounds like Edmund/);
  });
});
