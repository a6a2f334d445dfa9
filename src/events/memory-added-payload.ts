/**
 * A MemoryAdded payload's text, written field by field: the same text as JSON.stringify of the
 * event's schema fields in schema order (codec.ts), for an event its schema has passed. An
 * import writes one per line; this makes no object to stringify and quotes only the texts a
 * person wrote (test/core/memory-added-payload.property.test.ts holds the two equal).
 *
 * Only for a valid event: the schema guarantees that the id (ULID letters), the vocabulary
 * words and the time (`IsoTime`) hold nothing JSON escapes, and that the numbers are finite
 * (a finite number's JSON is its `String`).
 */
import { canonicalCapture } from "./capture.js"
import type { EventOf } from "./events.js"

export const memoryAddedPayload = (e: EventOf<"MemoryAdded">): string => {
  let json =
    `{"memoryId":"${e.memoryId}","content":${JSON.stringify(e.content)},"category":"${e.category}","scope":"${e.scope}",` +
    `"project":${e.project === null ? "null" : JSON.stringify(e.project)},"tags":${JSON.stringify(e.tags)},` +
    `"source":"${e.source}","status":"${e.status}","confidence":${e.confidence}`
  if (e.createdAt !== undefined) json += `,"createdAt":"${e.createdAt}"`
  if (e.cues !== undefined) json += `,"cues":${JSON.stringify(e.cues)}`
  if (e.redacted !== undefined) json += `,"redacted":${JSON.stringify(e.redacted)}`
  if (e.privateDropped !== undefined) json += `,"privateDropped":${e.privateDropped}`
  if (e.flags !== undefined) json += `,"flags":${JSON.stringify(e.flags)}`
  if (e.capture !== undefined) json += `,"capture":${JSON.stringify(canonicalCapture(e.capture))}`
  if (e.visibility !== undefined) json += `,"visibility":"${e.visibility}"`
  return `${json}}`
}
