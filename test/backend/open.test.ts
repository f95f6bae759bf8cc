/**
 * openBackend's mock: the record types it is given are checked once, as they are loaded, so a type
 * the mock cannot serve fails at start, named, rather than being served empty or unfindable.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadMock } from '../../src/backend/open.ts';
import { createMemoryRecords } from '../../src/store/memory-records.ts';
import { testfixture } from '../fixtures/testfixture/description.ts';
import { fixtureScenarios } from '../fixtures/testfixture/scenarios.ts';

test('the mock refuses, at start, a type it has no records of or no full record of', async () => {
  const { writer } = createMemoryRecords([testfixture]);
  await assert.rejects(loadMock(writer, { descriptions: [testfixture], scenarios: [] }), {
    name: 'DescriptionError',
    message: /^record type testfixture: mock records: no mock scenarios/,
  });
  const withoutFull = { ...fixtureScenarios, scenarios: fixtureScenarios.scenarios.filter((s) => s.id !== 123456789) };
  await assert.rejects(loadMock(writer, { descriptions: [testfixture], scenarios: [withoutFull] }), {
    name: 'DescriptionError',
    message: /^record type testfixture: mock records: no mock scenario 123456789, the record with every field filled/,
  });
  await loadMock(writer, { descriptions: [testfixture], scenarios: [fixtureScenarios] });
});
