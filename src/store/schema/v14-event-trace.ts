/**
 * Version 14: the W3C trace context (`traceparent`: a trace id and a span id, nothing of a record)
 * of the traced load that made each event, so that webhook delivery continues the load's trace.
 * NULL: the load was not traced.
 */
export const eventTrace = `
ALTER TABLE feed_event ADD COLUMN trace_parent text;
`;
