/** A feed event as the CloudEvents 1.0 JSON every reader gets: the feed's answers and the webhooks' bodies alike. */
import type { FeedEvent } from '../model/events.ts';

/** `source` is the record type's v1 path; `fields` where a subscription includes some. */
export const cloudEventOf = (event: FeedEvent, source: string, fields?: Record<string, unknown>) => ({
  specversion: '1.0',
  id: String(event.position),
  type: event.type,
  source,
  subject: String(event.recordId),
  time: event.time,
  datacontenttype: 'application/json',
  data: {
    recordType: event.recordType,
    recordId: event.recordId,
    ...(event.reason ? { reason: event.reason } : {}),
    ...(fields ? { fields } : {}),
  },
});
