/** databaseFailure: the words an operator reads when the database failed under a command. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { databaseFailure } from '../../src/store/driver.ts';

test(
  'a lost connection, a refused one and a server shutting down are named; anything else is left to its ' +
    'own message',
  () => {
    const failure = (code?: string, message = 'x') =>
      databaseFailure(Object.assign(new Error(message), code ? { code } : {}));
    assert.match(failure('EPIPE') ?? '', /^the connection to the database was lost \(EPIPE\)/);
    assert.match(failure('57P01') ?? '', /was lost \(57P01\)/);
    assert.match(failure('08006') ?? '', /was lost/);
    assert.match(
      failure(undefined, 'Connection terminated unexpectedly') ?? '',
      /was lost \(Connection terminated unexpectedly\)/,
    );
    assert.match(failure('ECONNREFUSED') ?? '', /^the database refused the connection/);
    assert.match(failure('57P03') ?? '', /refused the connection/);
    assert.equal(failure('23505'), undefined, 'a unique violation is not a lost connection');
    assert.equal(failure(), undefined);
    assert.equal(databaseFailure(undefined), undefined);
  },
);
