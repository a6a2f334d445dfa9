/**
 * A clock that never moves, for benches whose figures must not depend on when they run:
 * recency, decay and every recorded time are computed from the one instant given.
 */
import { Clock, Effect } from "effect"

export const fixedClock = (ms: number): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  currentTimeMillis: Effect.succeed(ms),
  currentTimeNanos: Effect.succeed(BigInt(ms) * 1_000_000n),
  unsafeCurrentTimeMillis: () => ms,
  unsafeCurrentTimeNanos: () => BigInt(ms) * 1_000_000n,
  // Timeouts (the http embedder's) sleep on the clock: they must still take real time.
  sleep: (duration) => realClock.sleep(duration)
})

/** The instant the benches pretend it is. */
export const BENCH_NOW = Date.parse("2025-06-01T12:00:00.000Z")

const realClock = Clock.make()
