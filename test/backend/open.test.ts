/**
 * openBackend's mock: the record types it is given are checked once, as they are loaded, so a type
 * the mock has no records of fails at start, named, rather than being served empty.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadMock } from '../../src/backend/open.ts';
import { createMemoryRecords } from '../../src/store/memory-records.ts';
import { testfixture } from '../fixtures/testfixture/description.ts';
import { fixtureScenarios } from '../fixtures/testfixture/scenarios.ts';

test('the mock refuses, at start, a type it has no records of', async () => {
  const { writer } = createMemoryRecords([testfixture]);
  await assert.rejects(loadMock(writer, { descriptions: [testfixture], scenarios: [] }), {
    name: 'DescriptionError',
    message: /^record type testfixture: mock records: the mock has none/,
  });
  await loadMock(writer, { descriptions: [testfixture], scenarios: [fixtureScenarios] });
});
