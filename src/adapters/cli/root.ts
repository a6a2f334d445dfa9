/**
 * The root `mem` command: its only option is `--db`, which must come before the command.
 * Memory commands run through `Operations`: against the store file, or against the server
 * MEMLEDGER_URL names, by one code path. Maintenance commands work on a store file only.
 */
import { Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import type { Caller, Operations } from "../../api/operations.js"
import { operationsForStore, remoteFromEnv } from "../../api/operations-from-env.js"
import { CLI_WRITER } from "../../domain/vouching.js"
import { detectProject } from "../../project/identity.js"
import { defaultDbPath } from "../../services/app.js"
import { fail, printOutcome, runAgainstStore, type Printed, type Services } from "./output.js"
import type { StoreOpening } from "../../store/opening.js"

export const mem = Command.make("mem", {
  db: Options.text("db").pipe(
    Options.withDescription("the store file (else MEMLEDGER_URL's server, else MEMLEDGER_DB, else ~/.memledger/memledger.db)"),
    Options.optional
  )
})

/**
 * The Operations a command runs on. An explicit `--db` is a local file, as it beats
 * MEMLEDGER_DB; otherwise MEMLEDGER_URL, when set, sends every operation to that server.
 */
export const operationsFor = (db: Option.Option<string>, opening: StoreOpening = {}) => operationsForStore(Option.getOrUndefined(db), opening)

/**
 * A command that writes the first memories may create the store (`CREATES`); every other one
 * has nothing to do on a new, empty store, so a missing file is reported (StoreNotFound) and
 * nothing is created: a mistyped --db must not leave a file and its folders behind.
 */
export const CREATES: StoreOpening = { create: true }
const EXISTING: StoreOpening = { create: false }

/** Runs operations and prints the result. */
export const withOperations = <A, E extends { readonly _tag: string; readonly message: string }>(
  effect: Effect.Effect<A, E, Operations>,
  printed: Printed<A>,
  opening: StoreOpening = EXISTING
) =>
  Effect.flatMap(mem, ({ db }) =>
    printOutcome(
      Effect.provide(effect, operationsFor(db, opening)),
      printed,
      db
    )
  )

/**
 * Who this command line is: its --origin and --agent (default "cli"), and the project of the
 * working folder, detected here so that a server far away records the caller's project.
 */
export const callerOf = (a: { readonly origin?: string; readonly agent?: string } = {}): Caller => ({
  origin: a.origin ?? CLI_WRITER,
  agent: a.agent ?? CLI_WRITER,
  project: detectProject(process.cwd())
})

/**
 * Runs a maintenance command against the store file. With MEMLEDGER_URL set (and no --db), it
 * refuses with a usage error: these read or rewrite the file itself, so they run on the
 * server's machine.
 */
export const withStore = <A, E extends { readonly _tag: string; readonly message: string }>(
  effect: Effect.Effect<A, E, Services>,
  printed: Printed<A>,
  opening: StoreOpening = EXISTING
) => onStoreFile(printed, (db) => runAgainstStore(db, effect, printed, opening))

/**
 * Runs a command on where the store is, without opening it (a restore replaces the file
 * itself); refused as withStore refuses with MEMLEDGER_URL set and no --db.
 */
export const withStoreLocation = <A, E extends { readonly _tag: string; readonly message: string }>(
  f: (store: string) => Effect.Effect<A, E>,
  printed: Printed<A>
) => onStoreFile(printed, (db) => printOutcome(Effect.suspend(() => f(Option.getOrElse(db, () => defaultDbPath()))), printed, db))

const onStoreFile = <A>(printed: Printed<A>, run: (db: Option.Option<string>) => Effect.Effect<void>) =>
  Effect.flatMap(mem, ({ db }) => {
    const remote = Option.isNone(db) ? remoteFromEnv() : undefined
    if (remote === undefined) return run(db)
    return Effect.sync(() =>
      fail(
        printed.json,
        "LocalOnly",
        `this command works on a store file, so it runs on the server's machine, against its file; MEMLEDGER_URL is set (${remote.url}): run it there, or pass --db FILE for a local store`,
        2
      )
    )
  })
