/**
 * Human output shows ids as the store's shortest unique prefix, at least 8 characters (README).
 * Some answers (outcome, confirm, forget, restore, edit, supersede, a memory's links) carry
 * only full ids on the wire; for human output their short forms are asked of the store, the
 * same way in local and remote mode. --json output keeps the full ids and asks nothing.
 */
import { Effect } from "effect"
import { callOperation } from "../../api/call-operation.js"
import type { Operations } from "../../api/operations.js"
import { ID_DISPLAY_LENGTH } from "../../domain/ids.js"
import { callerOf } from "./root.js"

export interface WithShortIds<A> {
  readonly value: A
  /** The short form of an id of `value`; the first 8 characters if the store could not say. */
  readonly short: (id: string) => string
}

export const withShortIds = <A, E>(
  json: boolean,
  effect: Effect.Effect<A, E, Operations>,
  idsOf: (value: A) => ReadonlyArray<string>
): Effect.Effect<WithShortIds<A>, E, Operations> =>
  Effect.flatMap(effect, (value) => {
    if (json) return Effect.succeed({ value, short: (id: string) => id })
    const ids = [...new Set(idsOf(value))]
    return Effect.map(
      Effect.forEach(ids, (id) =>
        callOperation("getMemory", { id }, callerOf()).pipe(
          Effect.map((m) => [id, m.shortId] as const),
          // Only the display is at stake: a lookup that fails shows the usual 8 characters.
          Effect.orElseSucceed(() => [id, id.slice(0, ID_DISPLAY_LENGTH)] as const)
        )
      ),
      (pairs) => {
        const known = new Map(pairs)
        return { value, short: (id: string) => known.get(id) ?? id.slice(0, ID_DISPLAY_LENGTH) }
      }
    )
  })
