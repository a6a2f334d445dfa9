/**
 * One extraction of a session at a time. Turn ends come faster than a model may answer: a
 * second extraction started while the first waits would read from the same line and send the
 * same text again. So each holds a lock file beside the session's state while it works, and
 * the next waits for it, then reads from where the first left off. A lock older than the time
 * limit belongs to a process that was killed, and is taken over.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { Duration, Effect, type Scope } from "effect"
import { sessionFileOf } from "../../hooks/session-state.js"

/** Held until the scope closes; waiting for it is interruptible, so the extraction's time limit bounds it. */
export const extractionLock = (store: string, sessionId: string, staleAfterMs: number): Effect.Effect<void, never, Scope.Scope> => {
  const file = sessionFileOf(store, sessionId, ".extracting")
  const wait = Effect.gen(function* () {
    for (;;) {
      const taken = take(file, staleAfterMs)
      if (taken !== "held by another") return taken
      yield* Effect.sleep(Duration.millis(250))
    }
  })
  return Effect.acquireRelease(wait, (taken) => Effect.sync(() => taken === "taken" && rmSync(file, { force: true }))).pipe(Effect.asVoid)
}

type Taking = "taken" | "held by another" | "cannot lock"

const take = (file: string, staleAfterMs: number): Taking => {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    writeFileSync(file, String(process.pid), { flag: "wx", mode: 0o600 })
    return "taken"
  } catch (error) {
    // A folder that cannot be written: go on without the lock, which only ever spares a repeat.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return "cannot lock"
  }
  try {
    if (Date.now() - statSync(file).mtimeMs <= staleAfterMs) return "held by another"
    rmSync(file, { force: true })
  } catch {
    // Gone between the two calls: take it on the next try.
  }
  return "held by another"
}
