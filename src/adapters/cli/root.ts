/**
 * The root `mem` command: its only option is `--db`, which must come before the command.
 * Subcommands read it with `yield* mem` and run against that store.
 */
import { Command, Options } from "@effect/cli"
import { Effect, Either } from "effect"
import { runAgainstStore, type Printed, type Services } from "./output.js"

export const mem = Command.make("mem", {
  db: Options.text("db").pipe(
    Options.withDescription("the store file (else MEMLEDGER_DB, else ~/.memledger/memledger.db)"),
    Options.optional
  )
})

/** Runs a service call against the store `--db` names and prints its result. */
export const withStore = <A, E extends { readonly _tag: string; readonly message: string }>(
  effect: Effect.Effect<A, E, Services>,
  printed: Printed<A>
) => Effect.flatMap(mem, ({ db }) => runAgainstStore(db, effect, printed))

/** Lifts an Either of parsed input into the effect, so bad input fails like any domain error. */
export const fromEither = <A, E>(either: Either.Either<A, E>): Effect.Effect<A, E> => either
