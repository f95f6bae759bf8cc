import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { mockRecords } from '../../src/mock/dataset.ts';
import { type TestStore, filledStore, recordTypes, startApp, suiteContext } from '../helper.ts';
import { INVISIBLE } from './invisible.ts';
import { builtInScenarios, builtInTypes } from '../record-types.ts';

describe('searching with invisible format characters in the name', () => {
  const context = suiteContext();
  let store: TestStore | undefined;
  before(async () => {
    store = await filledStore(context, 'memory');
  });
  for (const invisible of INVISIBLE) {
    test(
      `finds the record through a name holding ` +
        `U+${invisible.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`,
      async (t) => {
        assert.ok(store);
        const { app } = await startApp(t, store);
        const query = new URLSearchParams({
          surname: `Ash${invisible}worth`,
          forenames: `Ele${invisible}anor`,
          dateOfBirth: '2008-08-08',
        });
        const response = await app.inject({
          url: `/v1/registration/birth?${query}`,
          headers: { 'x-auth-username': 'test-user', 'x-auth-aud': 'test-client' },
        });
        assert.equal(response.statusCode, 200, response.body);
        const found = response.json() as Array<{ child: { forenames: string; surname: string } }>;
        assert.deepEqual(
          found.map((record) => `${record.child.forenames} ${record.child.surname}`),
          ['Eleanor Rose Ashworth'],
        );
      },
    );
  }
});

describe('a record loaded with invisible format characters in its names', () => {
  test('is found by the plain name', async (t) => {
    const birthType = recordTypes().find((type) => type.description.name === 'birth');
    assert.ok(birthType);
    const entry = mockRecords(builtInTypes, builtInScenarios).birth.find(
      (record) => (record as { id: number }).id === 123456789,
    ) as { child: { forenames: string; surname: string } };
    entry.child.surname = 'Ash\u200dwo\u00adrth';
    entry.child.forenames = '\ufeffEle\u200canor Rose';
    const stored = birthType.toStored(entry);
    assert.ok(!('reason' in stored), JSON.stringify(stored));
    const { app } = await startApp(t, await filledStore(t, 'memory', new Map([['birth', [stored]]])));
    const query = new URLSearchParams({ surname: 'Ashworth', forenames: 'Eleanor', dateOfBirth: '2008-08-08' });
    const response = await app.inject({
      url: `/v1/registration/birth?${query}`,
      headers: { 'x-auth-username': 'test-user', 'x-auth-aud': 'test-client' },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(
      (response.json() as Array<{ id: number }>).map((record) => record.id),
      [123456789],
    );
  });
});
