/**
 * Upcasters: turn a payload written under an older schema version into the current one.
 * Each entry maps version n to n + 1 for one event type; a read applies them in a chain.
 * Version 1 is the first, so the table is empty; it is where a future change goes, next to a
 * test that decodes a stored row of the old version.
 */
import type { EventType } from "./events.js"
import { CURRENT_VERSION } from "./events.js"

type Payload = Record<string, unknown>
type Step = (payload: Payload) => Payload

const STEPS: Partial<Record<EventType, Record<number, Step>>> = {}

export const upcast = (type: EventType, version: number, payload: Payload, steps = STEPS): Payload => {
  let current = payload
  for (let v = version; v < CURRENT_VERSION; v++) {
    const step = steps[type]?.[v]
    if (step) current = step(current)
  }
  return current
}
