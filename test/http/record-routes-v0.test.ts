/**
 * The v0 birth view as a projection of the v1 one, over a real socket, on every
 * store kind: each v0 field from its v1 source, the same fields hidden without
 * full-details, and the registration a re-registered birth replaced.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isBlocked, readPath } from '../../src/records/define.ts';
import type { ViewDescription } from '../../src/records/views.ts';
import { views } from '../record-types.ts';
import { CALLER, FULL_DETAILS, storeKinds } from '../helper.ts';
import { FULL_ID, type Json, isObject, recordsOf, sharedStore } from './record-routes-fixture.ts';

for (const kind of await storeKinds()) {
  describe(`record routes on the ${kind} store`, () => {
    const app = sharedStore(kind)();

    describe('v0 birth is a projection of v1', () => {
      const [v0] = views.filter((view) => view.version === 'v0');
      const v1 = views.find((view) => view.version === 'v1' && view.record === v0.record) as ViewDescription;

      const both = async (id: number, headers: Record<string, string> = FULL_DETAILS) => {
        const [old, current] = await Promise.all([
          app().get(`${v0.path}/${id}`, headers),
          app().get(`${v1.path}/${id}`, headers),
        ]);
        assert.equal(old.status, 200, old.text);
        assert.equal(current.status, 200, current.text);
        return { old: old.body as Json, current: current.body as Json };
      };

      const nameOf = (name: unknown) =>
        name as { givenName?: string; surname?: string; fullName?: string; qualifier?: string };
      const assertName = (name: unknown, forenames: unknown, surname: unknown, where: string) => {
        const n = nameOf(name);
        assert.equal(n.givenName, forenames, `${where}.givenName`);
        assert.equal(n.surname, surname, `${where}.surname`);
        assert.equal(n.fullName, `${String(forenames)} ${String(surname)}`, `${where}.fullName`);
        assert.equal(typeof n.qualifier, 'string', `${where}.qualifier`);
      };

      test(`${FULL_ID}: every v0 field comes from its v1 source`, async () => {
        const { old, current } = await both(FULL_ID);
        const at = (record: Json, path: string) => readPath(record, path);
        const pairs: Array<[string, string]> = [
          ['location.registrationDistrict', 'registrar.district'],
          ['location.subDistrict', 'registrar.subdistrict'],
          ['location.administrativeArea', 'registrar.administrativeArea'],
          ['subjects.child.dateOfBirth', 'child.dateOfBirth'],
          ['subjects.child.sex', 'child.sex'],
          ['subjects.child.birthplace', 'child.birthplace'],
          ['subjects.father.birthplace', 'father.birthplace'],
          ['subjects.father.occupation', 'father.occupation'],
          ['subjects.mother.birthplace', 'mother.birthplace'],
          ['subjects.mother.occupation', 'mother.occupation'],
          ['subjects.mother.maidenSurname', 'mother.maidenSurname'],
          ['subjects.mother.marriageSurname', 'mother.marriageSurname'],
          ['subjects.mother.usualAddress', 'mother.address'],
          ['subjects.informant.usualAddress', 'informant1.address'],
          ['systemNumber', 'id'],
          ['id', 'id'],
          ['date', 'date'],
          ['registrarSignature', 'registrar.signature'],
          ['status.potentiallyFictitiousBirth', 'status.potentiallyFictitious'],
          ['status.correction', 'status.correction'],
          ['status.cancelled', 'status.cancelled'],
          ['status.blockedRegistration', 'status.blocked'],
          ['status.marginalNote', 'status.marginalNote'],
          ['status.reRegistered', 'status.reregistration'],
        ];
        for (const [oldPath, currentPath] of pairs) {
          assert.notEqual(at(current, currentPath), undefined, `v1 ${currentPath} is filled`);
          assert.deepEqual(at(old, oldPath), at(current, currentPath), `v0 ${oldPath} = v1 ${currentPath}`);
        }
        assert.equal(
          at(old, 'location.name'),
          ['registrar.district', 'registrar.subdistrict', 'registrar.administrativeArea']
            .map((p) => at(current, p))
            .join(', '),
        );
        assert.equal(typeof at(old, 'location.nameQualifier'), 'string');
        assertName(
          at(old, 'subjects.child.name'),
          at(current, 'child.forenames'),
          at(current, 'child.surname'),
          'child.name',
        );
        assertName(
          at(old, 'subjects.child.originalName'),
          at(current, 'child.originalForenames'),
          at(current, 'child.surname'),
          'child.originalName',
        );
        assertName(
          at(old, 'subjects.father.name'),
          at(current, 'father.forenames'),
          at(current, 'father.surname'),
          'father.name',
        );
        assertName(
          at(old, 'subjects.mother.name'),
          at(current, 'mother.forenames'),
          at(current, 'mother.surname'),
          'mother.name',
        );
        assertName(
          at(old, 'subjects.informant.name'),
          at(current, 'informant1.forenames'),
          at(current, 'informant1.surname'),
          'informant.name',
        );
        for (const leaf of ['qualification', 'signature']) {
          assert.equal(
            at(old, `subjects.informant.${leaf}`),
            `${String(at(current, `informant1.${leaf}`))} ,${String(at(current, `informant2.${leaf}`))}`,
            `informant.${leaf} joins both informants`,
          );
        }
        assert.deepEqual(old.previousRegistration, {}, 'nothing was replaced');
      });

      test(`${FULL_ID} without full-details: v0 hides what v1 hides`, async () => {
        const { old } = await both(FULL_ID, CALLER);
        const n = nameOf(readPath(old, 'subjects.child.originalName'));
        assert.deepEqual(n, { givenName: null, surname: null, fullName: null, qualifier: null });
        assert.equal(readPath(old, 'subjects.mother.usualAddress'), null);
        assert.equal(readPath(old, 'registrarSignature'), null);
        assert.equal(typeof readPath(old, 'subjects.child.name.givenName'), 'string');
      });

      test('a re-registered birth shows the date and system number of the registration it replaced', async () => {
        const replacing = recordsOf(v1).filter(
          (record) => isObject(record.previousRegistration) && !isBlocked(record, v1.blockedFlag),
        );
        assert.ok(replacing.length > 0, 'the mock has a re-registered birth');
        let blockedPredecessors = 0;
        for (const record of replacing) {
          const previous = record.previousRegistration as Json;
          for (const headers of [FULL_DETAILS, CALLER]) {
            const { old, current } = await both(record.id as number, headers);
            assert.equal(
              readPath(old, 'previousRegistration.systemNumber'),
              previous.id,
              `${record.id} replaced ${String(previous.id)}`,
            );
            assert.equal(readPath(old, 'status.reRegistered'), readPath(current, 'status.reregistration'));
            if (isBlocked(previous, v1.blockedFlag)) {
              blockedPredecessors++;
              // As in v1, a blocked linked registration shows only its id: v0 leaves its date out.
              assert.equal(readPath(current, 'previousRegistration.date'), null);
              assert.ok(
                readPath(old, 'previousRegistration.date') == null,
                `${record.id}: the blocked predecessor's date is hidden`,
              );
            } else {
              assert.equal(
                readPath(old, 'previousRegistration.date'),
                previous.date,
                `${record.id}: date of the registration replaced`,
              );
              assert.equal(readPath(old, 'previousRegistration.date'), readPath(current, 'previousRegistration.date'));
            }
          }
        }
        assert.ok(blockedPredecessors > 0, 'the mock re-registers a blocked birth');
      });
    });
  });
}
