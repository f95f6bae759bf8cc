import assert from 'node:assert/strict';
import test from 'node:test';
import { ApiError, ConfigError, DescriptionError, LevError, UsageError, reportError } from '../src/errors.ts';
import { DataError } from '../src/load/data-path.ts';
import { SchemaBehindError } from '../src/store/migrations.ts';
import { VerificationInputError } from '../src/records/verification.ts';

test('every named error says its code, status and exit code; a command reports it in one line', () => {
  const cases: [LevError, string, number, 1 | 2, string][] = [
    [new UsageError('name what to do'), 'Usage', 500, 2, "lev-api audit: name what to do (see 'lev-api audit --help')"],
    [new ConfigError('PORT: expected a port'), 'Configuration', 500, 2, 'lev-api audit: PORT: expected a port'],
    [new DataError('births.json: not JSON'), 'Data', 500, 1, 'lev-api audit: births.json: not JSON'],
    [
      new SchemaBehindError([]),
      'SchemaBehind',
      500,
      1,
      "lev-api audit: The database schema is behind: 0 migration(s) to apply (). Run 'lev-api migrate' (npm " +
        'run migrate) with the same DATABASE_URL.',
    ],
    [
      new DescriptionError('death', 'blockedFlag', "'x' is not a field"),
      'Description',
      500,
      1,
      "lev-api audit: record type death: blockedFlag: 'x' is not a field",
    ],
    [
      new VerificationInputError('surname'),
      'BadRequest',
      400,
      1,
      "lev-api audit: Invalid query parameter 'surname': it must contain at least one letter or digit",
    ],
    [
      new ApiError(405, 'MethodNotAllowed', 'POST is not allowed', { allow: 'GET' }),
      'MethodNotAllowed',
      405,
      1,
      'lev-api audit: POST is not allowed',
    ],
  ];
  for (const [error, code, status, exitCode, line] of cases) {
    assert.ok(error instanceof LevError, error.name);
    assert.deepEqual([error.code, error.status, error.exitCode], [code, status, exitCode], error.name);
    assert.equal(error.name, error.constructor.name, 'named after its class, for logs');
    assert.deepEqual(reportError('audit', error), { line, exitCode });
  }
});

test("a fault that is not a named error exits 1 with its message; Fastify reads an answer's status", () => {
  assert.deepEqual(reportError('load', new Error('connect ECONNREFUSED 127.0.0.1:5432')), {
    line: 'lev-api load: connect ECONNREFUSED 127.0.0.1:5432',
    exitCode: 1,
  });
  assert.deepEqual(reportError('load', 'odd'), { line: 'lev-api load: odd', exitCode: 1 });
  assert.equal(new ApiError(404, 'NotFound', 'No record').statusCode, 404);
});
