/**
 * What a client receives of the change feed, by its roles, whether it reads the feed (its token's
 * roles) or is pushed events (the roles the operator recorded on its subscription): no event of a
 * dataset it may not read, and a subscription's fields rendered by the lookup's own renderer for
 * those roles, so an event never shows more than a lookup by the client would. One rule, used by
 * GET /v1/events and the webhook workers alike.
 */
import { fieldAt, recordTypeOf } from '../records/changes.ts';
import { type RecordDescription, readPath } from '../records/define.ts';
import type { FeedEvent } from '../model/events.ts';
import { FULL_DETAILS_ROLE } from '../model/identity.ts';
import type { CompiledView } from './view.ts';

/** The stored text of records of a type by id (EventFeed.recordsJson). */
type RecordsJson = (type: string, ids: readonly number[]) => Promise<Map<number, string>>;

/**
 * The event types of `types` a holder of `roles` receives: those of datasets it may read (`death`;
 * `death-verify` alone is not enough).
 */
export const receivableTypes = (types: readonly string[], roles: readonly string[]) =>
  types.filter((type) => roles.includes(recordTypeOf(type)));

export function eventFieldRenderer(descriptions: readonly RecordDescription[], views: readonly CompiledView[]) {
  const viewOf = new Map(views.filter((view) => view.version === 'v1').map((view) => [view.record.name, view]));
  const descriptionOf = new Map(descriptions.map((d) => [d.name, d]));

  /** The fields of `fields` that records of `type` have. */
  const fieldsOf = (type: string, fields: readonly string[]) =>
    fields.filter((path) => fieldAt(descriptionOf.get(type)!.fields, path));

  /**
   * Each event's fields, keyed by dot path, from its registration as it is now, rendered as a
   * lookup renders it for `roles` (null where they may not see it, and everything of a blocked
   * registration); events of types with none of the fields have none.
   */
  async function render(
    events: readonly FeedEvent[],
    fields: readonly string[],
    roles: readonly string[],
    recordsJson: RecordsJson,
  ) {
    const values = new Map<FeedEvent, Record<string, unknown>>();
    if (fields.length === 0) return values;
    const audience = { fullDetails: roles.includes(FULL_DETAILS_ROLE) };
    const byType = new Map<string, FeedEvent[]>();
    for (const event of events) byType.set(event.recordType, [...(byType.get(event.recordType) ?? []), event]);
    for (const [type, ofType] of byType) {
      const paths = fieldsOf(type, fields);
      if (paths.length === 0) continue;
      const stored = await recordsJson(type, [...new Set(ofType.map((e) => e.recordId))]);
      const rendered = new Map<number, Record<string, unknown>>();
      for (const event of ofType) {
        const json = stored.get(event.recordId);
        if (json === undefined) continue;
        let record = rendered.get(event.recordId);
        if (!record)
          rendered.set(
            event.recordId,
            (record = viewOf.get(type)!.render(JSON.parse(json), audience) as Record<string, unknown>),
          );
        values.set(event, Object.fromEntries(paths.map((path) => [path, readPath(record, path) ?? null])));
      }
    }
    return values;
  }

  return { render, fieldsOf, sourceOf: (type: string) => viewOf.get(type)!.path };
}

export type EventFieldRenderer = ReturnType<typeof eventFieldRenderer>;
