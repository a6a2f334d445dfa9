/**
 * How every command ends: run it (through `Operations`, or for maintenance against the store
 * file), then print exactly one JSON value (with --json) or human text on stdout; errors go to
 * stderr with exit code 1 (domain) or 2 (usage), as JSON too when --json was given.
 */
import { Cause, Effect, Exit, Option, type Scope } from "effect"
import { AppLayer } from "../../services/app.js"
import { defaultDbPath } from "../../services/store.js"
import type { Commands } from "../../services/commands.js"
import type { Maintenance } from "../../services/maintenance.js"
import type { Queries } from "../../services/queries.js"
import type { Retrieval } from "../../services/retrieval.js"
import type { Store } from "../../services/store.js"
import type { Tasks } from "../../services/tasks.js"

export type Services = Commands | Queries | Maintenance | Retrieval | Store | Tasks

/** Errors that mean the command line itself was wrong. */
const USAGE_ERRORS = new Set(["UnknownCategory", "InvalidId", "UsageError"])

export class UsageError {
  readonly _tag = "UsageError"
  constructor(readonly message: string) {}
}

export interface Printed<A> {
  readonly json: boolean
  readonly human: (value: A) => string
  /** What --json prints; the value itself unless given. */
  readonly toJson?: (value: A) => unknown
  /** A warning for stderr (such as a fallback to keyword search), printed in both modes. */
  readonly notice?: (value: A) => string | undefined
}

/** Runs a command's effect to its end, then prints its result, or its error with the exit code. */
export const printOutcome = <A, E extends { readonly _tag: string; readonly message: string }>(
  effect: Effect.Effect<A, E, Scope.Scope>,
  printed: Printed<A>
): Effect.Effect<void> =>
  Effect.gen(function* () {
    const exit = yield* Effect.exit(Effect.scoped(effect))
    if (Exit.isSuccess(exit)) {
      const value = exit.value
      const notice = printed.notice?.(value)
      if (notice) process.stderr.write(`mem: ${notice}\n`)
      process.stdout.write(printed.json ? `${JSON.stringify(printed.toJson ? printed.toJson(value) : value)}\n` : `${printed.human(value)}\n`)
      return
    }
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) fail(printed.json, failure.value._tag, failure.value.message)
    else fail(printed.json, "InternalError", Cause.pretty(exit.cause), 1)
  })

/** Runs a maintenance command against the store file `--db` names (else MEMLEDGER_DB, else the default). */
export const runAgainstStore = <A, E extends { readonly _tag: string; readonly message: string }>(
  db: Option.Option<string>,
  effect: Effect.Effect<A, E, Services>,
  printed: Printed<A>
): Effect.Effect<void> => printOutcome(Effect.provide(effect, AppLayer(Option.getOrElse(db, () => defaultDbPath()))), printed)

/** Prints an error the way --json or a person wants it and sets the exit code. */
export const fail = (json: boolean, tag: string, message: string, code?: number): void => {
  process.stderr.write(json ? `${JSON.stringify({ error: tag, message })}\n` : `mem: ${message}\n`)
  process.exitCode = code ?? (USAGE_ERRORS.has(tag) ? 2 : 1)
}
