/**
 * The pages' forms, from the record descriptions: the search form from the v1 search parameters,
 * the certificate check from the type's verification parameters. Dates are asked as day, month and
 * year (the GOV.UK date input) and sent to the API as YYYY-MM-DD.
 */
import type { RecordDescription } from '../records/define.ts';
import { compileVerification } from '../records/verification.ts';
import { isSystemNumber } from '../records/system-number.ts';
import { isIsoDate } from '../records/dates.ts';
import { capitalised } from '../records/wording.ts';

export type FieldKind = 'text' | 'date' | 'id';

export interface FormField {
  /** The API's parameter name, also the input's name (a date's inputs are `<name>-day` and so on). */
  readonly name: string;
  readonly label: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly hint?: string;
}

export type Values = Readonly<Record<string, string | undefined>>;

/** What was wrong with the form, by field; in the order of the fields for the error summary. */
export type FieldErrors = Record<string, string>;

const lowerFirst = (text: string) => text[0].toLowerCase() + text.slice(1);
/** A label from a description: "The child's date of birth, YYYY-MM-DD" reads "Child's date of birth". */
const labelOf = (description: string) => {
  return capitalised(description.replace(/,? ?YYYY-MM-DD\.?$/, '').replace(/^The /, ''));
};

/** The search form: the system number alone, or the names and the date. */
export function searchFields(description: RecordDescription): { byNumber: FormField[]; byNames: FormField[] } {
  return {
    byNumber: [
      {
        name: 'systemNumber',
        label: 'System number',
        kind: 'id',
        required: false,
        hint: 'Printed at the bottom left of the certificate',
      },
    ],
    byNames: [
      { name: 'surname', label: 'Surname', kind: 'text', required: true },
      {
        name: 'forenames',
        label: 'Forenames',
        kind: 'text',
        required: true,
        hint: 'The first forename is enough; more narrow the search',
      },
      {
        name: description.search.dateParam,
        label: labelOf(description.search.dateDescription),
        kind: 'date',
        required: true,
      },
    ],
  };
}

/** The certificate check's form: every parameter of the type's verification. */
export function verificationFields(description: RecordDescription): FormField[] {
  return compileVerification(description).parameters.map((parameter) => ({
    name: parameter.name,
    label: labelOf(parameter.description),
    kind: parameter.compare === 'date' ? 'date' : parameter.compare === 'id' ? 'id' : 'text',
    required: parameter.required,
  }));
}

const pad = (text: string, length: number) => text.padStart(length, '0');

/**
 * The API's parameters from the submitted form: trimmed, empty ones left out, dates joined. Missing
 * required fields and dates that are not dates are named here, as GOV.UK asks ("Enter ...").
 */
export function readForm(
  fields: readonly FormField[],
  values: Values,
): { params: Record<string, string>; errors: FieldErrors } {
  const params: Record<string, string> = {};
  const errors: FieldErrors = {};
  for (const field of fields) {
    const label = lowerFirst(field.label);
    if (field.kind === 'date') {
      const [day, month, year] = ['day', 'month', 'year'].map((part) => (values[`${field.name}-${part}`] ?? '').trim());
      if (!day && !month && !year) {
        if (field.required) errors[field.name] = `Enter the ${label}`;
        continue;
      }
      if (!/^\d{1,2}$/.test(day) || !/^\d{1,2}$/.test(month) || !/^\d{4}$/.test(year)) {
        errors[field.name] = `The ${label} must be a real date, for example 8 8 2008`;
        continue;
      }
      const date = `${year}-${pad(month, 2)}-${pad(day, 2)}`;
      if (!isIsoDate(date)) {
        errors[field.name] = `The ${label} must be a real date, for example 8 8 2008`;
        continue;
      }
      params[field.name] = date;
      continue;
    }
    const value = (values[field.name] ?? '').trim();
    if (!value) {
      if (field.required) errors[field.name] = `Enter the ${label}`;
      continue;
    }
    if (field.kind === 'id' && !isSystemNumber(value)) {
      errors[field.name] = `The ${label} must be a number, like 123456789`;
      continue;
    }
    params[field.name] = value;
  }
  return { params, errors };
}

/** The parameter an API 400 names (`Invalid query parameter 'surname': ...`), if it names one. */
export function parameterNamed(message: string): string | undefined {
  return /parameter '([^']+)'/.exec(message)?.[1];
}

/** The error summary's list: each error linked to its field (a date to its day input). */
export function errorList(fields: readonly FormField[], errors: FieldErrors): { text: string; href: string }[] {
  return fields
    .filter((field) => errors[field.name])
    .map((field) => ({
      text: errors[field.name],
      href: `#${field.kind === 'date' ? `${field.name}-day` : field.name}`,
    }));
}
