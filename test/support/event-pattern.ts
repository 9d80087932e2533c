/**
 * EventBridge's matching of an event pattern of exact values, as its user guide describes it
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-patterns.html): every field of
 * the pattern must match; a list matches when the event's value is one of its values (or, when the
 * event's value is itself a list, when any of its elements is); an object matches the event's
 * object field by field, and an event's list of objects when any of them matches. Only exact
 * values: the product's patterns use no prefix, numeric or anything-but filter.
 */

const eventFieldNames: Readonly<Record<string, string>> = { detailType: 'detail-type' };

export function matchesPattern(pattern: object, event: unknown): boolean {
  if (event === null || typeof event !== 'object') return false;
  return Object.entries(pattern).every(([key, wanted]) => {
    const value = (event as Record<string, unknown>)[eventFieldNames[key] ?? key];
    const candidates = Array.isArray(value) ? value : [value];
    if (Array.isArray(wanted)) return candidates.some((candidate) => wanted.includes(candidate));
    return candidates.some((candidate) => matchesPattern(wanted as object, candidate));
  });
}
