/**
 * How every command ends: run it (through `Operations`, or for maintenance against the store
 * file), then print exactly one JSON value (with --json) or human text on stdout; errors go to
 * stderr with exit code 1 (domain) or 2 (usage), as JSON too when --json was given.
 */
import { existsSync, rmSync } from "node:fs"
import { resolve } from "node:path"
import { Cause, Effect, Exit, Option, type Scope } from "effect"
import { AppLayer, defaultDbPath, isPostgresUrl, storeErrorOf, storeLocation, unusablePath } from "../../services/app.js"
import { StoreMaintenance } from "../../store/store-maintenance.js"
import type { Backups } from "../../services/backups.js"
import type { Commands } from "../../services/commands.js"
import type { Maintenance } from "../../services/maintenance.js"
import type { Queries } from "../../services/queries.js"
import type { Retrieval } from "../../services/retrieval.js"
import type { Tasks } from "../../services/tasks.js"
import type { People } from "../../services/people.js"
import { forTerminal } from "./terminal-text.js"
import type { StoreOpening } from "../../store/opening.js"

export type Services = Commands | Queries | Maintenance | Backups | Retrieval | StoreMaintenance | Tasks | People

/** Errors that mean the command line itself was wrong. */
const USAGE_ERRORS = new Set(["UnknownCategory", "InvalidId", "UsageError", "ExportTargetInvalid", "SecretInIdentity"])

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

/**
 * Runs a command's effect to its end, then prints its result, or its error with the exit code.
 * `db` is the --db the command line gave, checked here before anything opens it.
 */
export const printOutcome = <A, E extends { readonly _tag: string; readonly message: string }>(
  effect: Effect.Effect<A, E, Scope.Scope>,
  printed: Printed<A>,
  db: Option.Option<string> = Option.none()
): Effect.Effect<void> =>
  Effect.gen(function* () {
    const badDb = Option.flatMap(db, (path) => Option.fromNullable(dbOptionProblem(path)))
    if (Option.isSome(badDb)) return fail(printed.json, "UsageError", badDb.value)
    const exit = yield* Effect.exit(Effect.scoped(effect))
    if (Exit.isSuccess(exit)) {
      const value = exit.value
      const notice = printed.notice?.(value)
      if (notice) process.stderr.write(`mem: ${forTerminal(notice)}\n`)
      // Human text quotes what agents wrote: its control characters are shown, not obeyed.
      process.stdout.write(printed.json ? `${JSON.stringify(printed.toJson ? printed.toJson(value) : value)}\n` : `${forTerminal(printed.human(value))}\n`)
      return
    }
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) return fail(printed.json, failure.value._tag, failure.value.message)
    // SQLite throws a damaged file or a lock held too long from any statement: a bad
    // environment, not a bug, so it is said in words rather than as a stack trace.
    const store = Option.flatMap(Cause.dieOption(exit.cause), (defect) =>
      Option.fromNullable(storeErrorOf(defect, storeLocation(Option.getOrElse(db, () => defaultDbPath()))))
    )
    if (Option.isSome(store)) return fail(printed.json, store.value._tag, store.value.message, 1)
    fail(printed.json, "InternalError", Cause.pretty(exit.cause), 1)
  })

/**
 * Runs a maintenance command against the store file `--db` names (else MEMLEDGER_DB, else the
 * default). A command that fails leaves no store file behind that it created itself and that
 * holds no event (a replay of a missing file must not leave an empty store to replay into).
 */
export const runAgainstStore = <A, E extends { readonly _tag: string; readonly message: string }>(
  db: Option.Option<string>,
  effect: Effect.Effect<A, E, Services>,
  printed: Printed<A>,
  opening: StoreOpening
): Effect.Effect<void> => {
  const path = storeLocation(Option.getOrElse(db, () => defaultDbPath()))
  return printOutcome(
    Effect.suspend(() => {
      const created = !isPostgresUrl(path) && !existsSync(path)
      let empty = false
      const noteEmpty = Effect.flatMap(StoreMaintenance, (store) => Effect.map(store.isEmpty, (isEmpty) => void (empty = created && isEmpty)))
      return Effect.provide(Effect.onExit(effect, (exit) => (Exit.isFailure(exit) ? Effect.ignore(noteEmpty) : Effect.void)), AppLayer(path, undefined, undefined, opening)).pipe(
        // After the layer closed the store: SQLite removes the -wal when the last connection
        // closes, so a -wal still there means another process has the new file open: it stays.
        Effect.onExit((exit) => Effect.sync(() => void (Exit.isFailure(exit) && empty && !existsSync(`${path}-wal`) && rmSync(path, { force: true }))))
      )
    }),
    printed,
    db
  )
}

/** Prints an error the way --json or a person wants it and sets the exit code. */
export const fail = (json: boolean, tag: string, message: string, code?: number): void => {
  process.stderr.write(json ? `${JSON.stringify({ error: tag, message })}\n` : `mem: ${forTerminal(message)}\n`)
  process.exitCode = code ?? (USAGE_ERRORS.has(tag) ? 2 : 1)
}

/** What is wrong with a --db path, said in the option's terms; undefined when it may be opened. */
export const dbOptionProblem = (path: string): string | undefined => {
  if (path.trim() === "") return "--db is empty; give the store file's path"
  const problem = unusablePath(storeLocation(path))
  if (problem === undefined) return undefined
  return problem.startsWith("it ") ? `--db ${path} ${problem.slice(3)}` : `--db ${path}: ${problem}`
}
