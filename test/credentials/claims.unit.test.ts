/**
 * Which fields of a description a credential carries, under which names, is one rule (claims.ts)
 * that the claims of a record and every format's list of claims follow. Pinned here, key order
 * included (the order is the credential's bytes), on a description with each case the rule
 * decides: a top-level name JWT reserves, the blocked flag inside a group, nested groups written
 * both ways, a list, a link, a leaf without a description, values missing or not visible.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { claimFields, compileClaims } from '../../src/credentials/claims.ts';
import { jwtVcJsonFormat } from '../../src/credentials/formats/jwt-vc-json.ts';
import { mdocElements, msoMdocFormat } from '../../src/credentials/formats/mso-mdoc.ts';
import { issuerKeys } from '../../src/credentials/keys.ts';
import { typeMetadata } from '../../src/credentials/type-metadata.ts';
import {
  always,
  basic,
  flag,
  group,
  integer,
  isoDate,
  link,
  list,
  type RecordDescription,
  text,
} from '../../src/records/define.ts';
import { death } from '../../src/records/types/death.ts';

const ISSUER = 'https://lev.example.gov.uk';

const sample: RecordDescription = {
  ...death,
  name: 'sample',
  title: 'Sample registration',
  blockedFlag: 'status.blocked',
  fields: {
    id: always(integer('System number')),
    status: group('Status', { blocked: always(flag('Blocked')), marginalNote: text('Marginal note') }),
    date: basic(isoDate('Date registered')),
    child: group('The child', {
      forenames: text('Forenames'),
      birthplace: { town: text('Town'), county: text('County') },
      aliases: list('basic', 'Other names', { forenames: text('Forenames') }),
    }),
    empty: group('Nothing recorded', { note: text('Note') }),
    others: list('full', 'Not visible', { name: text('Name') }),
    previousRegistration: link('The registration this one replaces'),
    iss: text('A field named as a JWT claim'),
    plain: Type.String(),
  },
};

const rendered = {
  id: 42,
  status: { blocked: false, marginalNote: 'Corrected' },
  date: '2020-01-02',
  child: { forenames: 'Ann', birthplace: { town: 'Leeds', county: null }, aliases: [{ forenames: 'Annie' }] },
  empty: { note: null },
  others: [],
  previousRegistration: { id: 41, status: { blocked: false } },
  iss: 'x',
  plain: 'y',
};

/** Equal as JSON text: the same members in the same order. */
const same = (actual: unknown, expected: unknown) => assert.equal(JSON.stringify(actual), JSON.stringify(expected));

test(
  "a record's claims: what it holds and its reader may see, the blocked flag and links left out, reserved " +
    'names renamed',
  () => {
    same(compileClaims(sample.name, sample.fields, sample.blockedFlag)(rendered), {
      claims: {
        id: 42,
        sampleStatus: { marginalNote: 'Corrected' },
        date: '2020-01-02',
        child: { forenames: 'Ann', birthplace: { town: 'Leeds' }, aliases: [{ forenames: 'Annie' }] },
        sampleIss: 'x',
        plain: 'y',
      },
      fields: [
        'id',
        'status.marginalNote',
        'date',
        'child.forenames',
        'child.birthplace.town',
        'child.aliases',
        'iss',
        'plain',
      ],
    });
  },
);

const everyClaim = [
  ['id', 'System number'],
  ['sampleStatus.marginalNote', 'Marginal note'],
  ['date', 'Date registered'],
  ['child.forenames', 'Forenames'],
  ['child.birthplace.town', 'Town'],
  ['child.birthplace.county', 'County'],
  ['child.aliases', 'Other names'],
  ['empty.note', 'Note'],
  ['others', 'Not visible'],
  ['sampleIss', 'A field named as a JWT claim'],
  ['plain', 'plain'],
] as const;

test('every claim a credential of the type may carry, each a leaf or a whole list, labelled by its description', () => {
  same(
    claimFields(sample.name, sample.fields, sample.blockedFlag).map(({ path, label }) => [path.join('.'), label]),
    everyClaim,
  );
});

test('the SD-JWT VC type metadata lists every claim', () => {
  same(
    typeMetadata(sample, ISSUER).claims,
    everyClaim.map(([path, label]) => ({ path: path.split('.'), display: [{ locale: 'en-GB', label }], sd: 'always' })),
  );
});

test("the mdoc's data elements: one a claim, named by its dot path, dates as full-dates", async () => {
  same(
    mdocElements(sample),
    everyClaim.map(([path, label]) => ({ path: path.split('.'), id: path, label, date: path === 'date' })),
  );
  const format = msoMdocFormat({ signer: () => Promise.reject(new Error('not signing')), validityS: 60 });
  same(
    (format.configuration(sample, ISSUER).credential_metadata as { claims: unknown }).claims,
    everyClaim.map(([path, label]) => ({
      path: ['uk.gov.gro.sample.1', path],
      display: [{ name: label, locale: 'en-GB' }],
    })),
  );
});

test(
  "the JWT VC's claims under credentialSubject, the record's id renamed as the holder's is the " + "subject's",
  async () => {
    const format = jwtVcJsonFormat({ keys: await issuerKeys(undefined), validityS: 60 });
    same(
      (format.configuration(sample, ISSUER).credential_metadata as { claims: unknown }).claims,
      everyClaim.map(([path, label]) => ({
        path: ['credentialSubject', ...(path === 'id' ? 'sampleId' : path).split('.')],
        display: [{ name: label, locale: 'en-GB' }],
      })),
    );
  },
);
