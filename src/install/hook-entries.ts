/**
 * Lifecycle hooks in the shape Claude Code and Codex share:
 * `{hooks: {Event: [{matcher?, hooks: [{type: "command", command, timeout, async?}]}]}}`.
 * memledger's handlers are recognised by their command (see `isMemledgerHook`), never by
 * position, so the user's own hooks on the same events stay where they are, untouched.
 */
import { Either } from "effect"
import { isJsonObject, type Json, type JsonChange, type JsonObject } from "./json-document.js"
import { removeKey, setKey } from "./json-entries.js"

export interface HookSpec {
  readonly event: string
  readonly matcher?: string
  readonly command: string
  /** Seconds, as both agents count them. */
  readonly timeout: number
  /** Claude Code runs the command in the background and goes on without waiting for it. */
  readonly async?: true
}

/**
 * Puts each spec's group in its event: where a group of only memledger handlers already is
 * (so a second install changes nothing), else last. Memledger handlers found anywhere else
 * in that event (an older install, a group the user edited) are taken out, and so are those
 * in events no spec names (an event an older install hooked and this one does not).
 */
export const withHooks =
  (specs: ReadonlyArray<HookSpec>, isOurs: (command: string) => boolean): JsonChange =>
  (document) => {
    const hooks = Object.hasOwn(document, "hooks") ? document.hooks : {}
    if (!isJsonObject(hooks)) return Either.left(`"hooks" is not an object`)
    const hooked = new Set(specs.map((spec) => spec.event))
    let next: JsonObject = withoutOurs(hooks, isOurs, (event) => !hooked.has(event))
    for (const spec of specs) {
      const groups = Object.hasOwn(next, spec.event) ? next[spec.event] : []
      if (!Array.isArray(groups)) return Either.left(`"hooks.${spec.event}" is not a list`)
      next = setKey(next, spec.event, placeGroup(groups, groupOf(spec), isOurs))
    }
    return Either.right(setKey(document, "hooks", next))
  }

/** Takes every memledger handler out of every event; groups and events it leaves empty go too. */
export const withoutHooks =
  (isOurs: (command: string) => boolean): JsonChange =>
  (document) => {
    const hooks = document.hooks
    if (!isJsonObject(hooks)) return Either.right(document)
    const next = withoutOurs(hooks, isOurs, () => true)
    if (next === hooks) return Either.right(document)
    return Either.right(Object.keys(next).length === 0 ? removeKey(document, "hooks") : setKey(document, "hooks", next))
  }

/** `hooks` without memledger's handlers in the events `inEvent` picks; itself when that changes nothing. */
const withoutOurs = (hooks: JsonObject, isOurs: (command: string) => boolean, inEvent: (event: string) => boolean): JsonObject => {
  let next = hooks
  for (const [event, groups] of Object.entries(hooks)) {
    if (!inEvent(event) || !Array.isArray(groups)) continue
    const kept = placeGroup(groups, undefined, isOurs)
    if (kept.length === groups.length && kept.every((group, i) => group === groups[i])) continue
    next = kept.length === 0 ? removeKey(next, event) : setKey(next, event, kept)
  }
  return next
}

const groupOf = (spec: HookSpec): JsonObject => ({
  ...(spec.matcher === undefined ? {} : { matcher: spec.matcher }),
  hooks: [{ type: "command", command: spec.command, timeout: spec.timeout, ...(spec.async === undefined ? {} : { async: spec.async }) }]
})

/** The groups without memledger handlers, with `desired` (when given) in the place described above. */
const placeGroup = (groups: ReadonlyArray<Json>, desired: JsonObject | undefined, isOurs: (command: string) => boolean): ReadonlyArray<Json> => {
  const result: Array<Json> = []
  let placed = desired === undefined
  for (const group of groups) {
    const handlers = isJsonObject(group) && Array.isArray(group.hooks) ? (group.hooks as ReadonlyArray<Json>) : undefined
    const ours = handlers?.filter((handler) => isOurHandler(handler, isOurs)) ?? []
    if (handlers === undefined || ours.length === 0) {
      result.push(group)
    } else if (ours.length === handlers.length && !placed && desired !== undefined) {
      result.push(desired)
      placed = true
    } else if (ours.length < handlers.length && isJsonObject(group)) {
      result.push(setKey(group, "hooks", handlers.filter((handler) => !isOurHandler(handler, isOurs))))
    }
  }
  if (!placed && desired !== undefined) result.push(desired)
  return result
}

const isOurHandler = (handler: Json, isOurs: (command: string) => boolean): boolean =>
  isJsonObject(handler) && typeof handler.command === "string" && isOurs(handler.command)
