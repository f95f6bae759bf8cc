/**
 * A record as the pages show it, made by walking its type's description: each group a section,
 * each leaf a row labelled with the field's own description, in the description's order. Only the
 * fields the API sent with a value appear, so a caseworker sees exactly what their roles allow
 * (hidden fields come as null) and nothing is written per record type.
 */
import {
  type Field,
  type Fields,
  type RecordDescription,
  groupDescription,
  groupFields,
  isBlocked,
  isLeaf,
  isLink,
  isList,
  readPath,
} from '../records/define.ts';

export interface Row {
  readonly label: string;
  readonly value: string;
}

interface Section {
  readonly heading: string;
  /** The group's dot path in the record. */
  readonly path: string;
  readonly rows: readonly Row[];
}

interface LinkedRegistration {
  readonly label: string;
  readonly id: number;
}

interface RecordPage {
  readonly id: number;
  readonly blocked: boolean;
  /** The flags worth a banner: corrected, marginal note, cancelled and the like, as the record has them. */
  readonly flags: readonly Row[];
  readonly linked: readonly LinkedRegistration[];
  readonly sections: readonly Section[];
}

// "Correction made to the registration, or None": the row shows what there is, so the label leaves the None out.
const leafDescription = (field: Field) =>
  String((field as { description?: string }).description ?? '').replace(/, or None$/, '');

/** "Date of birth" from "dateOfBirth", for a group the description leaves unnamed. */
const words = (name: string) => {
  const spaced = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[0-9]+/g, ' $&')
    .trim();
  return spaced[0].toUpperCase() + spaced.slice(1).toLowerCase();
};

function shown(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

function rowsOf(fields: Fields, record: unknown, prefix: string): { rows: Row[]; sections: Section[] } {
  const rows: Row[] = [];
  const sections: Section[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (isLink(field)) continue;
    if (isLeaf(field)) {
      const value = shown(readPath(record, path));
      if (value !== undefined) rows.push({ label: leafDescription(field), value });
    } else if (isList(field)) {
      const items = readPath(record, path);
      if (!Array.isArray(items)) continue;
      items.forEach((item, i) => {
        const inner = rowsOf(field.item, item, '');
        if (inner.rows.length)
          sections.push({ heading: `${field.description} ${i + 1}`, path: `${path}.${i}`, rows: inner.rows });
      });
    } else {
      const group = field as Fields;
      const inner = rowsOf(groupFields(group), record, path);
      if (inner.rows.length) sections.push({ heading: groupDescription(group) ?? words(name), path, rows: inner.rows });
      sections.push(...inner.sections);
    }
  }
  return { rows, sections };
}

export function recordPage(description: RecordDescription, record: unknown): RecordPage {
  const { rows, sections } = rowsOf(description.fields, record, '');
  const linked: LinkedRegistration[] = [];
  for (const [name, field] of Object.entries(description.fields)) {
    if (!isLink(field)) continue;
    const id = readPath(record, `${name}.id`);
    if (typeof id === 'number') linked.push({ label: field.description, id });
  }
  // The blocked flag's group holds the registration's flags.
  const flagGroup = description.blockedFlag.split('.').slice(0, -1).join('.');
  const status = sections.find((section) => section.path === flagGroup);
  const flags = (status?.rows ?? []).filter((row) => row.value !== 'No' && row.value !== 'None');
  return {
    id: Number(readPath(record, 'id')),
    blocked: isBlocked(record, description.blockedFlag),
    flags,
    linked,
    sections: [
      ...(rows.length ? [{ heading: `${words(description.name)} registration`, path: '', rows }] : []),
      ...sections.filter((s) => s !== status),
    ],
  };
}
