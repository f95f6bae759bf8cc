/**
 * `lev-api credentials verify FILE` checks an mdoc and a JWT VC as it checks an SD-JWT VC, with the
 * typed client's verifiers: each picked up by a wallet from the running mock over the real routes
 * is genuine and standing (exit 0, what it holds printed); once the registration is corrected it is
 * genuine but no longer stands (exit 1); altered, or from an issuer not trusted, it is not genuine
 * (exit 1, the reason on one line); a --nonce, which only an SD-JWT presentation has, is a mistake (exit 2).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { didKey } from '../../src/credentials/did.ts';
import { searchKeys } from '../../src/records/search-keys.ts';
import { CALLER, emptyStore, startApp, testConfig } from '../helper.ts';
import { newWallet, pickUp } from '../http/wallet/wallet.ts';
import { tempDir } from '../load/load-fixture.ts';
import { builtInType } from '../record-types.ts';
import { commandChecks, runCli } from '../run-cli.ts';

const birth = builtInType('birth');
const ID = 700_002_001;
const child = (correction = 'None') => {
  const data = {
    id: ID,
    child: { forenames: 'Robin Lee', surname: 'Walleted', dateOfBirth: '2010-10-10' },
    status: { blocked: false, cancelled: false, correction },
  };
  return { id: ID, data, keys: searchKeys(birth, data) };
};

test(
  'credentials verify: an mdoc and a JWT VC genuine and ' + 'standing, then no longer standing, altered or foreign',
  async (t) => {
    const store = await emptyStore(t, 'memory');
    const app = await startApp(t, store, testConfig());
    await store.upsert(birth.name, [child()]);
    const dir = await tempDir(t);
    const verify = async (file: string, ...more: string[]) => {
      const run = await runCli(t, ['credentials', 'verify', file, '--issuer', app.url, '--allow-http', ...more]);
      return { ...run, printed: JSON.parse(run.stdout || '{}') };
    };

    const files: Record<string, string> = {};
    for (const format of ['mso_mdoc', 'jwt_vc_json']) {
      const response = await fetch(`${app.url}/v1/credentials/birth/${ID}/offer`, {
        method: 'POST',
        headers: { ...CALLER, 'x-auth-roles': 'credentials,birth', 'content-type': 'application/json' },
        body: JSON.stringify({ format }),
      });
      const { offer } = (await response.json()) as { offer: string };
      assert.equal(response.status, 201, offer);
      const wallet = newWallet();
      const [credential] = (await pickUp(wallet, offer)).credentials;
      files[format] = join(dir, format);
      await writeFile(files[format], `${credential}\n`);

      const { code, printed, stderr } = await verify(files[format]);
      assert.equal(code, 0, stderr);
      assert.equal(printed.genuine, true);
      assert.equal(printed.format, format);
      assert.equal(printed.stands, true);
      assert.equal(printed.type, 'birth');
      assert.equal(printed.issuer, app.url);
      assert.ok(Date.parse(printed.expiresAt) > Date.parse(printed.issuedAt));
      if (format === 'mso_mdoc') {
        assert.equal(printed.disclosed.id, ID);
        assert.equal(printed.disclosed['child.surname'], 'Walleted');
        assert.deepEqual(
          { x: printed.holder.x, y: printed.holder.y },
          { x: wallet.publicJwk.x, y: wallet.publicJwk.y },
          'the device key is the wallet key',
        );
      } else {
        assert.equal(printed.disclosed.birthId, ID);
        assert.equal(printed.disclosed.child.surname, 'Walleted');
        assert.equal(printed.holder, didKey(wallet.publicJwk));
      }

      // Altered: one character of its signature (the JWT VC's) or of an item (the mdoc's) changed.
      const altered = join(dir, `${format}.altered`);
      const at = format === 'jwt_vc_json' ? credential.length - 10 : Math.floor(credential.length / 2);
      await writeFile(
        altered,
        `${credential.slice(0, at)}${credential[at] === 'A' ? 'B' : 'A'}${credential.slice(at + 1)}`,
      );
      const refused = await verify(altered);
      assert.equal(refused.code, 1);
      assert.equal(refused.printed.genuine, false, refused.stdout);
      assert.match(refused.stderr, /^lev-api credentials: not genuine: /);
      assert.equal(refused.stderr.split('\n').length, 1, refused.stderr);

      const foreign = await runCli(t, [
        'credentials',
        'verify',
        files[format],
        '--issuer',
        'https://lev-api.example.gov.uk',
      ]);
      assert.equal(foreign.code, 1);
      assert.match(foreign.stderr, /^lev-api credentials: not genuine: .*trusted here/);

      const { mistake } = commandChecks(t, 'credentials', {});
      await mistake(
        ['verify', files[format], '--issuer', app.url, '--allow-http', '--nonce', 'n'],
        new RegExp(`--nonce checks an SD-JWT presentation's key binding; this is ${format}`),
      );
    }

    // A correction: still genuine, no longer standing (a status list is read afresh after a second).
    await store.upsert(birth.name, [child('Surname corrected')]);
    for (const [format, file] of Object.entries(files)) {
      const started = Date.now();
      let run = await verify(file);
      while (run.code === 0 && Date.now() - started < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        run = await verify(file);
      }
      assert.equal(run.code, 1, `${format}: ${run.stderr}`);
      assert.equal(run.printed.genuine, true);
      assert.equal(run.printed.stands, false);
      assert.match(run.stderr, /no longer stands/);
    }
  },
);
