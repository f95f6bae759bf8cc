/**
 * Verification without disclosure, derived from a record type's `verification`
 * declaration: which parameters a caller gives, and whether they match exactly
 * one current registration among the candidates the search found.
 *
 * The search (date, surname, forenames word prefix of the first party named)
 * finds the candidates; every candidate is then compared in full, the same way
 * whatever the outcome, so that the time taken says as little as the answer.
 * Declarations are checked when compiled (at start-up): a path that names no
 * field, or a date that is not searched, fails then rather than as registrations
 * that never verify.
 */
import { type Comparison, type RecordDescription, type VerifiedDetail, blockedBy, isLeaf, readPath } from './define.ts';
import { LevError } from '../errors.ts';
import { type FieldKind, checkDescription, fieldAt, isKind } from './check.ts';
import { normaliseName } from './normalise.ts';
import type { SearchKey, VerifiedValues } from '../model/records.ts';
import { forenamesMatch } from './search-keys.ts';
import { canonicalSystemNumber } from './system-number.ts';

/** A parameter of a type's verification, in the order the document lists them. */
interface VerificationParameter {
  readonly name: string;
  readonly compare: Comparison;
  readonly required: boolean;
  readonly description: string;
}

/** A parameter whose value normalises to nothing (no letter or digit): the caller's mistake. */
export class VerificationInputError extends LevError {
  constructor(readonly parameter: string) {
    super(`Invalid query parameter '${parameter}': it must contain at least one letter or digit`, {
      code: 'BadRequest',
      status: 400,
    });
  }
}

interface GivenName {
  readonly surname: string;
  readonly forenames: string;
}

interface GivenDetail {
  readonly compare: Comparison;
  /** Where the detail's fields are among a candidate's values. */
  readonly slots: readonly number[];
  /** Normalised as the comparison needs. */
  readonly value: string;
}

/** A verification request read and normalised: what every candidate is compared with. */
interface VerificationQuery {
  /** The search that finds the candidates: the date and the first party's names. */
  readonly key: SearchKey;
  readonly date: string;
  readonly names: readonly GivenName[];
  readonly details: readonly GivenDetail[];
}

export interface Candidates {
  readonly records: readonly VerifiedValues[];
  /** More records matched the search than were returned: the answer cannot be told. */
  readonly truncated: boolean;
}

export interface CompiledVerification {
  readonly description: RecordDescription;
  readonly parameters: readonly VerificationParameter[];
  /** Reads a query whose values already have the parameters' forms; throws VerificationInputError. */
  read(query: Readonly<Record<string, string | undefined>>): VerificationQuery;
  /**
   * True when exactly one registration among the candidates matches everything given, and it is
   * current (not replaced by a re-registration), not blocked and not cancelled. Replaced
   * registrations are passed over, so the current one of a chain verifies alone.
   */
  decide(candidates: Candidates, query: VerificationQuery): boolean;
}

const COMPARED_AS: Record<Comparison, FieldKind> = {
  name: 'text',
  forenames: 'text',
  place: 'text',
  date: 'date',
  id: 'integer',
};

/** Throws unless the declaration names real fields of the right kinds. */
function check(description: RecordDescription): void {
  checkDescription(description);
  const { verification: v, name } = description;
  const problem = (what: string) => new Error(`record type ${name}: verification ${what}`);
  const leaf = (path: string, compare: Comparison, where: string) => {
    const field = fieldAt(description.fields, path);
    if (!field || !isLeaf(field)) throw problem(`${where}: '${path}' is not a field of the record`);
    if (!isKind(field, COMPARED_AS[compare])) throw problem(`${where}: '${path}' cannot be compared as ${compare}`);
  };
  // namesMatch marks the parties taken as bits of a number.
  if (description.search.parties.length > 30) throw problem('cannot compare more than 30 parties');
  if (v.names.length !== description.search.parties.length) {
    throw problem(`names ${v.names.length} parties, but the record has ${description.search.parties.length}`);
  }
  leaf(v.date.path, 'date', v.date.param);
  for (const party of description.search.parties) {
    if (!party.dates.includes(v.date.path))
      throw problem(`date '${v.date.path}' is not one the search finds the party ${party.surname} by`);
  }
  for (const [param, detail] of Object.entries(v.details)) {
    if (!detail.paths.length) throw problem(`${param} names no field`);
    for (const path of detail.paths) leaf(path, detail.compare, param);
  }
  if (v.cancelledFlag) {
    const field = fieldAt(description.fields, v.cancelledFlag);
    if (!field || !isKind(field, 'flag'))
      throw problem(`cancelled flag '${v.cancelledFlag}' is not a flag of the record`);
  }
  const link = fieldAt(description.fields, v.replacedBy);
  if (!link || !isKind(link, 'link')) throw problem(`replacedBy '${v.replacedBy}' is not a link of the record`);
  const names = [v.date.param, ...v.names.flatMap((n) => [n.surname, n.forenames]), ...Object.keys(v.details)];
  const repeated = names.find((param, i) => names.indexOf(param) !== i);
  if (repeated) throw problem(`names the parameter ${repeated} twice`);
}

/** Normalises a given value as its comparison needs. */
function given(parameter: string, compare: Comparison, raw: string): string {
  if (compare === 'date') return raw;
  if (compare === 'id') return canonicalSystemNumber(raw);
  const value = normaliseName(raw);
  if (!value) throw new VerificationInputError(parameter);
  return value;
}

/** Whether a stored value matches a given one, normalised as `given` left it. */
function matches(compare: Comparison, stored: unknown, value: string): boolean {
  switch (compare) {
    case 'name':
    case 'place':
      return typeof stored === 'string' && normaliseName(stored) === value;
    case 'forenames':
      return typeof stored === 'string' && forenamesMatch(normaliseName(stored), value);
    case 'date':
      return stored === value;
    case 'id':
      return (typeof stored === 'number' || typeof stored === 'string') && String(stored) === value;
  }
}

/**
 * The dot paths of the fields a verification of this type compares or checks, each once: what a
 * store gives of each candidate (`RecordReader.verificationCandidates`), rather than the record.
 */
export function verifiedPaths(description: RecordDescription): readonly string[] {
  const v = description.verification;
  const paths = [
    v.date.path,
    ...description.search.parties.flatMap((party) => [party.surname, party.forenames]),
    ...Object.values(v.details).flatMap((detail: VerifiedDetail) => detail.paths),
    v.replacedBy,
    description.blockedFlag,
    ...(v.cancelledFlag === undefined ? [] : [v.cancelledFlag]),
  ];
  return [...new Set(paths)];
}

/** A record's values at `paths` (from verifiedPaths), null where it has none, as the stores give candidates. */
export const verifiedValues = (record: unknown, paths: readonly string[]): VerifiedValues =>
  paths.map((path) => readPath(record, path) ?? null);

export function compileVerification(description: RecordDescription): CompiledVerification {
  check(description);
  const v = description.verification;
  const paths = verifiedPaths(description);
  const slot = (path: string) => paths.indexOf(path);
  const parties = description.search.parties.map((party) => ({
    surname: slot(party.surname),
    forenames: slot(party.forenames),
  }));
  const dateSlot = slot(v.date.path);
  const replacedSlot = slot(v.replacedBy);
  const blockedSlot = slot(description.blockedFlag);
  const cancelledSlot = v.cancelledFlag === undefined ? undefined : slot(v.cancelledFlag);
  const optionalDetails = Object.entries(v.details).map(([name, detail]: [string, VerifiedDetail]) => ({
    name,
    compare: detail.compare,
    slots: detail.paths.map(slot),
  }));
  const parameters: VerificationParameter[] = [
    ...v.names.flatMap((n) => [
      { name: n.surname, compare: 'name' as const, required: true, description: `Surname of ${n.who}` },
      { name: n.forenames, compare: 'forenames' as const, required: true, description: `Forenames of ${n.who}` },
    ]),
    { name: v.date.param, compare: 'date', required: true, description: v.date.description },
    ...Object.entries(v.details).map(([name, detail]: [string, VerifiedDetail]) => ({
      name,
      compare: detail.compare,
      required: false,
      description: detail.description,
    })),
  ];

  /** Whether names[i..] each match a different party of the record not yet `taken` (a bit per party), in some order. */
  const namesMatch = (record: VerifiedValues, names: readonly GivenName[], i = 0, taken = 0): boolean => {
    if (i === names.length) return true;
    for (let p = 0; p < parties.length; p++) {
      if (taken & (1 << p)) continue;
      if (!matches('name', record[parties[p].surname], names[i].surname)) continue;
      if (!matches('forenames', record[parties[p].forenames], names[i].forenames)) continue;
      if (namesMatch(record, names, i + 1, taken | (1 << p))) return true;
    }
    return false;
  };

  /** Every comparison is made, whichever fails first: the work is the same whatever the answer. */
  const matchesAll = (record: VerifiedValues, query: VerificationQuery): boolean => {
    let all = record[dateSlot] === query.date;
    all = namesMatch(record, query.names) && all;
    for (const detail of query.details) {
      let any = false;
      for (const at of detail.slots) any = matches(detail.compare, record[at], detail.value) || any;
      all = any && all;
    }
    return all;
  };

  return {
    description,
    parameters,

    read(query) {
      const names = v.names.map((n) => ({
        surname: given(n.surname, 'name', query[n.surname] as string),
        forenames: given(n.forenames, 'forenames', query[n.forenames] as string),
      }));
      const date = query[v.date.param] as string;
      const details: GivenDetail[] = [];
      for (const detail of optionalDetails) {
        const raw = query[detail.name];
        if (raw !== undefined)
          details.push({
            compare: detail.compare,
            slots: detail.slots,
            value: given(detail.name, detail.compare, raw),
          });
      }
      return { key: { date, surname: names[0].surname, forenames: names[0].forenames }, date, names, details };
    },

    decide({ records, truncated }, query) {
      // Every candidate is compared in full, whatever the others gave: the work does not depend on the answer.
      let matching = 0;
      let verifiable = false;
      for (const record of records) {
        const matched = matchesAll(record, query);
        const replaced = record[replacedSlot];
        if (!matched || (replaced !== null && replaced !== undefined)) continue;
        matching++;
        verifiable = !blockedBy(record[blockedSlot]) && (cancelledSlot === undefined || record[cancelledSlot] !== true);
      }
      return !truncated && matching === 1 && verifiable;
    },
  };
}
