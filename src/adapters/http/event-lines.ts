/**
 * The live log's wire form: each event as `GET /events` gives it, one JSON object a line. It
 * opens with one empty line, so the answer's headers go out at once, before any event (a
 * client's `fetch` resolves only then); readers skip empty lines.
 */
import { Stream } from "effect"
import { storedEventJson } from "../../events/export-line.js"
import type { StoredEvent } from "../../events/events.js"

const encoder = new TextEncoder()

export const eventLines = (events: Stream.Stream<StoredEvent>): Stream.Stream<Uint8Array> =>
  Stream.concat(
    Stream.succeed(encoder.encode("\n")),
    Stream.chunks(events).pipe(
      Stream.filter((chunk) => chunk.length > 0),
      Stream.map((chunk) => encoder.encode([...chunk].map((e) => `${JSON.stringify(storedEventJson(e))}\n`).join("")))
    )
  )
