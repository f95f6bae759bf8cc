/**
 * The issuer metadata is derived from the record descriptions: one configuration a type and format,
 * each naming every claim a credential of its type may carry; a field added to the real death
 * description appears in its configuration with no other change.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatRegistry, walletFormats } from '../../../src/credentials/formats/index.ts';
import { issuerKeys } from '../../../src/credentials/keys.ts';
import { documentSignerWhenNeeded } from '../../../src/credentials/mdoc-certificates.ts';
import { issuerMetadata } from '../../../src/credentials/openid4vci/metadata.ts';
import { type RecordDescription, basic, group, groupFields, text } from '../../../src/records/define.ts';
import { death } from '../../../src/records/types/death.ts';
import { builtInTypes } from '../../record-types.ts';

const ISSUER = 'https://lev.example.gov.uk';
const keys = await issuerKeys(undefined);
const signer = documentSignerWhenNeeded(undefined, { issuerUrl: ISSUER });
const metadataOf = (descriptions: readonly RecordDescription[]) =>
  issuerMetadata({
    issuer: ISSUER,
    authorizationServer: ISSUER,
    registry: formatRegistry(walletFormats({ keys, signer, validityS: 3600 }), descriptions),
  });

test('one configuration a record type and format, with the endpoints a wallet calls', () => {
  const formats = walletFormats({ keys, signer, validityS: 3600 });
  const metadata = metadataOf(builtInTypes);
  assert.equal(Object.keys(metadata.credential_configurations_supported).length, builtInTypes.length * formats.length);
  assert.equal(metadata.credential_endpoint, `${ISSUER}/v1/wallet/credential`);
  assert.equal(metadata.nonce_endpoint, `${ISSUER}/v1/wallet/nonce`);
  assert.equal(metadata.notification_endpoint, `${ISSUER}/v1/wallet/notification`);
  const birth = metadata.credential_configurations_supported.birth_sd_jwt as Record<string, any>;
  assert.equal(birth.format, 'dc+sd-jwt');
  assert.equal(birth.vct, `${ISSUER}/v1/credentials/types/birth`);
  assert.deepEqual(birth.proof_types_supported, { jwt: { proof_signing_alg_values_supported: ['ES256'] } });
});

test('a field added to a description appears in its configuration, and nothing else changes', () => {
  const deathWith: RecordDescription = {
    ...death,
    fields: {
      ...death.fields,
      deceased: group('The person whose death was registered', {
        ...groupFields(death.fields.deceased),
        placeOfBurial: basic(text('Where the deceased was buried', 'place')),
      }),
    },
  };
  const before = metadataOf(builtInTypes);
  const after = metadataOf(builtInTypes.map((type) => (type.name === 'death' ? deathWith : type)));
  type Claim = { path: string[]; display: { name: string }[] };
  const claims = (metadata: typeof before, id: string) =>
    (metadata.credential_configurations_supported[id] as any).credential_metadata.claims as Claim[];
  const deathIds = Object.keys(after.credential_configurations_supported).filter((id) => id.startsWith('death_'));
  assert.equal(
    deathIds.length,
    walletFormats({ keys, signer, validityS: 3600 }).length,
    'one configuration of deaths a format',
  );
  // In every format, the one claim added is the new field, labelled from its description (each format names
  // its path its own way).
  for (const id of deathIds) {
    const added = claims(after, id).filter(
      (claim) => !claims(before, id).some((old) => JSON.stringify(old) === JSON.stringify(claim)),
    );
    assert.equal(added.length, 1, id);
    assert.match(added[0].path.join('.'), /placeOfBurial$/, id);
    assert.deepEqual(added[0].display, [{ locale: 'en-GB', name: 'Where the deceased was buried' }], id);
  }
  const others = (metadata: typeof before) =>
    Object.fromEntries(
      Object.entries(metadata.credential_configurations_supported).filter(([id]) => !id.startsWith('death_')),
    );
  assert.deepEqual(others(after), others(before));
});
