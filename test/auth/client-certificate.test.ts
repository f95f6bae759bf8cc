/**
 * The on-boarding rules on certificates of every kind a client may present,
 * made here with openssl (self-signed, so each one's own key signs it): the
 * validity period at its boundary, RSA, EC and Ed25519 keys, and signature
 * algorithms read from the DER (PKCS#1 v1.5, RSASSA-PSS with its hash in the
 * parameters, ECDSA, EdDSA). And the thumbprint a bound token names.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { promisify } from 'node:util';
import { certificateProblem, certificateThumbprint, presentedCertificate } from '../../src/auth/client-certificate.ts';
import { suiteContext } from '../helper.ts';
import { type Pki, createPki } from './pki.ts';

const run = promisify(execFile);
const context = suiteContext();
let pki: Pki;
before(async () => {
  pki = await createPki(context);
});

let count = 0;
/** A self-signed certificate: `openssl req -x509` with these arguments. */
async function selfSigned(...args: string[]): Promise<X509Certificate> {
  const base = join(pki.dir, `self-${count++}`);
  await run('openssl', [
    'req',
    '-x509',
    '-nodes',
    '-subj',
    '/CN=client',
    '-keyout',
    `${base}.key`,
    '-out',
    `${base}.pem`,
    ...args,
  ]);
  return new X509Certificate(await readFile(`${base}.pem`));
}

const rule = (certificate: X509Certificate) => certificateProblem(certificate)?.rule;

test('the validity period: 730 and 731 days are accepted, 732 are not', async () => {
  const [d730, d731, d732] = await Promise.all(
    [730, 731, 732].map((days) =>
      selfSigned('-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-days', String(days)),
    ),
  );
  assert.equal(rule(d730), undefined);
  assert.equal(rule(d731), undefined);
  assert.deepEqual(certificateProblem(d732), {
    rule: 'validity-period',
    detail: 'it is valid for 732 days; at most 731 (two years) are accepted',
  });
});

test('keys: RSA 2048 and up, EC P-256 and up, Ed25519', async () => {
  const cases: Array<[string[], string | undefined]> = [
    [['-newkey', 'rsa:2048'], undefined],
    [['-newkey', 'rsa:3072', '-sha384'], undefined],
    [['-newkey', 'rsa:1536'], 'key-size'],
    [['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384', '-sha384'], undefined],
    [['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-521', '-sha512'], undefined],
    [['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-224'], 'key-size'],
    [['-newkey', 'ed25519'], undefined],
  ];
  const made = await Promise.all(cases.map(([args]) => selfSigned(...args, '-days', '30')));
  cases.forEach(([args, expected], index) => assert.equal(rule(made[index]), expected, args.join(' ')));
});

test(
  'signature algorithms: SHA-256 or stronger, including RSASSA-PSS with a strong hash; never SHA-1, ' +
    'SHA-224 or MD5',
  async () => {
    const rsa = ['-newkey', 'rsa:2048', '-days', '30'];
    const cases: Array<[string[], string | undefined]> = [
      [['-sha256'], undefined],
      [['-sha512'], undefined],
      [['-sha256', '-sigopt', 'rsa_padding_mode:pss'], undefined],
      [
        ['-sha1', '-sigopt', 'rsa_padding_mode:pss'],
        'it is signed with RSASSA-PSS with SHA-1; SHA-256 or stronger is needed',
      ],
      [['-sha1'], 'it is signed with sha1WithRSAEncryption; SHA-256 or stronger is needed'],
      [['-sha224'], 'it is signed with sha224WithRSAEncryption; SHA-256 or stronger is needed'],
      [['-md5'], 'it is signed with md5WithRSAEncryption; SHA-256 or stronger is needed'],
    ];
    const made = await Promise.all(cases.map(([args]) => selfSigned(...rsa, ...args)));
    cases.forEach(([args, detail], index) =>
      assert.equal(certificateProblem(made[index])?.detail, detail, args.join(' ')),
    );
    const ecdsaSha1 = await selfSigned('-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-sha1', '-days', '30');
    assert.equal(
      certificateProblem(ecdsaSha1)?.detail,
      'it is signed with ecdsa-with-SHA1; SHA-256 or stronger is needed',
    );
  },
);

test(
  'the thumbprint is base64url SHA-256 of the DER, as ' + 'openssl computes it; a plain socket presents nothing',
  async () => {
    const base = join(pki.dir, 'thumb');
    await run('openssl', [
      'req',
      '-x509',
      '-nodes',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-subj',
      '/CN=t',
      '-days',
      '30',
      '-keyout',
      `${base}.key`,
      '-out',
      `${base}.pem`,
    ]);
    await run('openssl', ['x509', '-in', `${base}.pem`, '-outform', 'DER', '-out', `${base}.der`]);
    const { stdout } = await run('openssl', ['dgst', '-sha256', '-binary', `${base}.der`], { encoding: 'buffer' });
    const certificate = new X509Certificate(await readFile(`${base}.pem`));
    assert.equal(certificateThumbprint(certificate), stdout.toString('base64url'));
    assert.equal(presentedCertificate({ remoteAddress: '127.0.0.1' }), undefined);
  },
);
