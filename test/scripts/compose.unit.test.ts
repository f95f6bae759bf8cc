/**
 * compose.yaml cannot be run here (no image registry answers), so its shape is checked instead: it
 * parses as YAML, has the stack docs/production.md describes, each of the project's services runs
 * the image built from this folder with a read-only root, and every dependency names a service.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';

const COMPOSE = new URL('../../compose.yaml', import.meta.url);

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  read_only?: boolean;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(COMPOSE, 'utf8'), { merge: true }) as { services: Record<string, Service> };

test('compose.yaml: PostgreSQL, a one-shot migrate, the API, deliver and the pages', () => {
  assert.deepEqual(Object.keys(compose.services).sort(), ['api', 'db', 'deliver', 'migrate', 'ui']);
  assert.match(compose.services.db.image ?? '', /^docker\.io\/library\/postgres:/);
  const commands = Object.fromEntries(
    Object.entries(compose.services).map(([name, service]) => [name, service.command?.[0]]),
  );
  assert.deepEqual(commands, { db: undefined, migrate: 'migrate', api: 'serve', deliver: 'deliver', ui: 'ui' });
});

test("compose.yaml: the project's services run this folder's image, read-only, after what they need", () => {
  for (const name of ['migrate', 'api', 'deliver', 'ui']) {
    const service = compose.services[name];
    assert.equal(service.build, '.', name);
    assert.equal(service.read_only, true, name);
    for (const needed of Object.keys(service.depends_on ?? {}))
      assert.ok(needed in compose.services, `${name} depends on ${needed}, no service`);
  }
  assert.equal(compose.services.api.depends_on?.migrate.condition, 'service_completed_successfully');
  assert.equal(compose.services.ui.environment?.UI_API_URL, 'http://api:8080');
  assert.match(compose.services.api.environment?.DATABASE_URL ?? '', /@db:5432\//);
});
