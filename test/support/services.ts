/**
 * The services in-process over a real SQLite file, with the clock fixed wherever a test says,
 * so decay and recency are exact.
 */
import { join } from "node:path"
import { Clock, Effect } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../../src/config.js"
import { CLI_ACTOR } from "../../src/commands/actor.js"
import { LocalOperationsLayer } from "../../src/services/app.js"
import { Commands } from "../../src/services/commands.js"
import type { Console } from "../../src/services/console.js"
import { Maintenance } from "../../src/services/maintenance.js"
import { Queries } from "../../src/services/queries.js"
import { Retrieval } from "../../src/services/retrieval.js"
import { Operations } from "../../src/api/operations.js"
import { Tasks } from "../../src/services/tasks.js"
import { tempDir } from "./cli.js"

export const DAY = 86_400_000
export const T0 = Date.parse("2026-01-01T00:00:00.000Z")

/** Time stands still at `ms`; sleeping (timeouts) still takes real time. */
export const fixedClock = (ms: number): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  currentTimeMillis: Effect.succeed(ms),
  currentTimeNanos: Effect.succeed(BigInt(ms) * 1_000_000n),
  unsafeCurrentTimeMillis: () => ms,
  unsafeCurrentTimeNanos: () => BigInt(ms) * 1_000_000n,
  sleep: (duration) => realClock.sleep(duration)
})

const realClock = Clock.make()

type Services = Commands | Queries | Maintenance | Retrieval | Tasks | Console | Operations

/** Runs `program` against the store at `dbPath` with the clock at `atMs`. */
export const runAt = <A, E>(dbPath: string, atMs: number, program: Effect.Effect<A, E, Services>, config: LedgerConfig = DEFAULT_CONFIG): Promise<A> =>
  Effect.runPromise(Effect.scoped(program.pipe(Effect.withClock(fixedClock(atMs)), Effect.provide(LocalOperationsLayer(dbPath, config)))))

export const freshDb = (): string => join(tempDir(), "m.db")

/** A program writing, as an agent or a script would: what it writes alone is never a rule. */
export const actor = { origin: "test", agent: "test" }
/** A person at the command line (domain/vouching.ts): what it writes may be a rule. */
export const person = CLI_ACTOR

export { Commands, Maintenance, Operations, Queries, Retrieval, Tasks }
