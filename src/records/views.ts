/**
 * What the HTTP interface serves: one view per (record type, interface
 * version). A v1 view shows the stored record as it is; the v0 birth view
 * projects it first. Paths, parameter names and shapes are those of the
 * published interface this service is compatible with.
 */
import { birth } from './types/birth.ts';
import { birthV0Fields, projectBirthV0 } from './birth-v0.ts';
import type { Fields, RecordDescription } from './define.ts';
import { capitalised } from './wording.ts';

export interface ViewDescription {
  /** What is stored and searched. */
  readonly record: RecordDescription;
  readonly version: 'v0' | 'v1';
  /** Search path; lookups are at `${path}/{idParam}`. */
  readonly path: string;
  readonly idParam: string;
  /** Name of the record schema in the OpenAPI document. */
  readonly schemaName: string;
  readonly fields: Fields;
  readonly blockedFlag: string;
  /** Maps the stored v1 record onto this view's shape. */
  readonly project?: (stored: unknown) => unknown;
  /** Names of the search parameters. */
  readonly query: {
    readonly surname: string;
    readonly forenames: string;
    readonly date: string;
    /** Alternative to `forenames`: its words given one parameter each. */
    readonly forenameParts?: readonly string[];
  };
}

export const v1View = (record: RecordDescription): ViewDescription => ({
  record,
  version: 'v1',
  path: `/v1/registration/${record.name}`,
  idParam: 'id',
  schemaName: `${capitalised(record.name)}V1`,
  fields: record.fields,
  blockedFlag: record.blockedFlag,
  query: { surname: 'surname', forenames: 'forenames', date: record.search.dateParam },
});

const birthV0View: ViewDescription = {
  record: birth,
  version: 'v0',
  path: '/api/v0/events/birth',
  idParam: 'systemNumber',
  schemaName: 'BirthV0',
  fields: birthV0Fields,
  blockedFlag: 'status.blockedRegistration',
  project: projectBirthV0,
  query: {
    surname: 'lastname',
    forenames: 'forenames',
    date: 'dateofbirth',
    forenameParts: ['forename1', 'forename2', 'forename3', 'forename4'],
  },
};

/** The views of the record types served: each one's v1, and v0 for births when births are served. */
export const viewsOf = (descriptions: readonly RecordDescription[]): readonly ViewDescription[] => [
  ...(descriptions.includes(birth) ? [birthV0View] : []),
  ...descriptions.map(v1View),
];
