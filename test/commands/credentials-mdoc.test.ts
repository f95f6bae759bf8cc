/**
 * `lev-api credentials iaca` and `document-signer` make the mdoc chain a deployment configures
 * (CREDENTIAL_IACA_CERTIFICATES, CREDENTIAL_DOCUMENT_SIGNER); the served /.well-known/iacas then
 * publishes what they wrote, over real HTTP, and the OpenAPI document lists it and the DID document.
 * A rotated IACA keeps the earlier one published; a signer no published IACA issued is refused at start.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { emptyStore, startApp, testConfig } from '../helper.ts';
import { commandChecks } from '../run-cli.ts';

const certificatesIn = (file: string) =>
  readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
const base64Der = (pem: string) => Buffer.from(new X509Certificate(pem).raw).toString('base64');

test('the IACA and document signer the commands make are served at /.well-known/iacas, and rotate', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lev-mdoc-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { ok, mistake } = commandChecks(t, 'credentials', {});
  await mistake(['document-signer', '--dir', dir], /no IACA to issue it/);
  await mistake(['iaca', '--dir', dir, '--days', '0'], /--days 0/);
  await ok(['iaca', '--dir', dir, '--issuer', 'https://lev-api.example.gov.uk']);
  await ok(['document-signer', '--dir', dir, '--days', '30']);
  const env = {
    CREDENTIAL_IACA_CERTIFICATES: join(dir, 'iacas.pem'),
    CREDENTIAL_DOCUMENT_SIGNER: join(dir, 'document-signer.pem'),
  };
  const first = certificatesIn(env.CREDENTIAL_IACA_CERTIFICATES)[0] as string;

  const running = await startApp(t, await emptyStore(t, 'memory'), testConfig(env));
  const served = await running.get('/.well-known/iacas', {});
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('access-control-allow-origin'), '*');
  assert.deepEqual(served.body, { iacas: [{ certificate: base64Der(first) }] });
  const did = await running.get('/.well-known/did.json', {});
  assert.equal(did.status, 200);
  assert.match(did.body.id, /^did:web:127\.0\.0\.1%3A\d+$/);
  const paths = Object.keys((await running.get('/openapi.json', {})).body.paths);
  assert.ok(
    paths.includes('/.well-known/iacas') && paths.includes('/.well-known/did.json'),
    'both are in the OpenAPI document',
  );

  // A rotation: the new IACA first, the earlier kept; the old signer is still one a published IACA issued.
  await ok(['iaca', '--dir', dir]);
  const rotated = certificatesIn(env.CREDENTIAL_IACA_CERTIFICATES);
  assert.equal(rotated.length, 2);
  assert.equal(rotated[1], first);
  assert.equal(loadConfig({ ...env }).credentials.mdoc?.iacas.length, 2);
  await ok(['document-signer', '--dir', dir]);
  const ds = new X509Certificate(certificatesIn(env.CREDENTIAL_DOCUMENT_SIGNER)[0] as string);
  assert.ok(ds.checkIssued(new X509Certificate(rotated[0] as string)), 'the new signer is issued by the new IACA');
});

test(
  'a document signer no given IACA issued, or one ' + 'setting without the other, is a configuration problem',
  async (t) => {
    const a = mkdtempSync(join(tmpdir(), 'lev-mdoc-a-'));
    const b = mkdtempSync(join(tmpdir(), 'lev-mdoc-b-'));
    t.after(() => [a, b].forEach((dir) => rmSync(dir, { recursive: true, force: true })));
    const { ok } = commandChecks(t, 'credentials', {});
    await ok(['iaca', '--dir', a]);
    await ok(['iaca', '--dir', b]);
    await ok(['document-signer', '--dir', b]);
    assert.throws(
      () =>
        loadConfig({
          CREDENTIAL_IACA_CERTIFICATES: join(a, 'iacas.pem'),
          CREDENTIAL_DOCUMENT_SIGNER: join(b, 'document-signer.pem'),
        }),
      /no IACA certificate given issued the document signer certificate/,
    );
    assert.throws(() => loadConfig({ CREDENTIAL_IACA_CERTIFICATES: join(a, 'iacas.pem') }), /go together/);
    assert.throws(
      () =>
        loadConfig({
          CREDENTIAL_IACA_CERTIFICATES: join(a, 'iacas.pem'),
          CREDENTIAL_DOCUMENT_SIGNER: join(a, 'missing.pem'),
        }),
      /cannot be read/,
    );
  },
);
