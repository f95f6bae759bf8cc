/**
 * The database settings as loadConfig reads them: a DATABASE_URL naming several hosts is refused
 * with a message saying what to give instead, where pg would fail only at its first connection; and
 * where close matches find their candidates.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { ConfigError } from '../../src/errors.ts';

const serving = { AUTH_MODE: 'proxy', TRUSTED_PROXIES: '10.0.0.0/8' };

test('a DATABASE_URL naming several hosts is refused, pointing to an address that follows the primary', () => {
  for (const url of [
    'postgres://db-a:5432,db-b:5433/lev?target_session_attrs=read-write',
    'postgresql://lev:secret@db-a,db-b/lev',
    'postgres://db-a,db-b',
  ]) {
    assert.throws(
      () => loadConfig({ ...serving, DATABASE_URL: url }),
      (error: Error) =>
        error instanceof ConfigError && /DATABASE_URL names several hosts.*follows the primary/.test(error.message),
      url,
    );
  }
});

test('one host is taken, a comma in its password included', () => {
  for (const url of [
    'postgres://db-a:5432/lev?application_name=a,b',
    'postgres://lev:pass,word@db-a/lev',
    'postgres://db-a',
  ]) {
    assert.equal(loadConfig({ ...serving, DATABASE_URL: url }).database?.url, url);
  }
});

test('SUGGESTION_INDEX: the database by default, the service when asked, and only with PostgreSQL', () => {
  assert.equal(loadConfig({ ...serving, DATABASE_URL: 'postgres://db-a' }).database?.suggestionIndex, 'database');
  assert.equal(
    loadConfig({ ...serving, DATABASE_URL: 'postgres://db-a', SUGGESTION_INDEX: 'service' }).database?.suggestionIndex,
    'service',
  );
  assert.throws(
    () => loadConfig({ ...serving, SUGGESTION_INDEX: 'service' }),
    (error: Error) => error instanceof ConfigError && /SUGGESTION_INDEX=service is for PostgreSQL/.test(error.message),
  );
  assert.throws(
    () => loadConfig({ ...serving, DATABASE_URL: 'postgres://db-a', SUGGESTION_INDEX: 'memory' }),
    ConfigError,
  );
});
