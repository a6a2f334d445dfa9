/**
 * Authors in the log's envelope move with the log: a log written before authors existed
 * replays and exports byte for byte as it was (its hashes unchanged), on every store; a store
 * file made before the `author` column gains it on open and still verifies; and an author written
 * through a token survives export and replay into another store.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect, Either, ManagedRuntime } from "effect"
import { afterAll, describe, expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { StoreLive } from "../../src/services/app.js"
import { EventLog } from "../../src/store/event-log.js"
import { StoreMaintenance } from "../../src/store/store-maintenance.js"
import { added, confirmed } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { dropTestDatabases } from "../support/postgres.js"
import { STORE_LOCATIONS } from "../support/store-locations.js"
import { makeTempDir } from "../support/temp-store.js"

const FIXTURE = join(import.meta.dirname, "../fixtures/logs/before-authors.jsonl")
const oldLog = readFileSync(FIXTURE, "utf8")

/** The ports of a store at `location`, made if missing. */
const open = (location: string) => {
  const runtime = ManagedRuntime.make(StoreLive(location, DEFAULT_CONFIG, { create: true }))
  return {
    run: <A, E>(effect: Effect.Effect<A, E, EventLog | StoreMaintenance>) => runtime.runPromise(effect),
    close: () => runtime.dispose()
  }
}

const exportText = async (store: ReturnType<typeof open>): Promise<string> => {
  const file = join(makeTempDir(), "out.jsonl")
  await store.run(Effect.flatMap(StoreMaintenance, (m) => m.exportTo(file)))
  return readFileSync(file, "utf8")
}

const LOCATIONS = STORE_LOCATIONS
const sqliteLocation = LOCATIONS[0]![1]

describe("a log from before authors", () => {
  afterAll(dropTestDatabases)

  for (const [name, location] of LOCATIONS) {
    test(`replays and exports with every hash unchanged (${name})`, async () => {
      const store = open(await location())
      expect(await store.run(Effect.flatMap(StoreMaintenance, (m) => m.replay(oldLog)))).toEqual({ events: 6 })
      expect(await exportText(store)).toBe(oldLog)
      const report = await store.run(Effect.flatMap(StoreMaintenance, (m) => m.verify(new Date().toISOString())))
      expect(report).toMatchObject({ ok: true, events: 6 })
      await store.close()
    })
  }

  test("a SQLite file made before the author column gains it on open, and verifies and exports as before", async () => {
    const path = await sqliteLocation()
    const made = open(path)
    await made.run(Effect.flatMap(StoreMaintenance, (m) => m.replay(oldLog)))
    await made.close()
    // Back to the log's shape before authors: no column, no trigger naming it, version 4.
    const db = new Database(path)
    db.exec("DROP TRIGGER events_append_only_update; ALTER TABLE events DROP COLUMN author; PRAGMA user_version = 4")
    db.close()

    const reopened = open(path)
    expect(await exportText(reopened)).toBe(oldLog)
    expect(await reopened.run(Effect.flatMap(StoreMaintenance, (m) => m.verify(new Date().toISOString())))).toMatchObject({ ok: true, events: 6 })
    await reopened.close()
    const after = new Database(path, { readonly: true })
    expect(after.pragma("user_version", { simple: true })).toBeGreaterThanOrEqual(5)
    expect(() => after.prepare("SELECT author FROM events").all()).not.toThrow()
    after.close()
  })
})

describe("authors survive export and replay", () => {
  afterAll(dropTestDatabases)

  for (const [from, fromLocation] of LOCATIONS) {
    for (const [to, toLocation] of LOCATIONS) {
      test(`${from} to ${to}`, async () => {
        const source = open(await fromLocation())
        const at = "2026-01-01T00:00:00.000Z"
        await source.run(
          Effect.flatMap(EventLog, (log) =>
            log.write((unit) =>
              Either.right(
                unit.append([
                  { id: eventId(1), recordedAt: at, origin: "rest", agent: "rest", author: "alice", event: added(memoryId(1), "use pnpm") },
                  { id: eventId(2), recordedAt: at, origin: "cli", agent: "cli", event: confirmed(memoryId(1)) },
                  { id: eventId(3), recordedAt: at, origin: "rest", agent: "rest", author: "bob", event: confirmed(memoryId(1)) }
                ])
              )
            )
          )
        )
        const exported = await exportText(source)
        expect(exported.split("\n").filter((l) => l.length > 0).map((l) => (JSON.parse(l) as { author?: string }).author)).toEqual(["alice", undefined, "bob"])
        const target = open(await toLocation())
        await target.run(Effect.flatMap(StoreMaintenance, (m) => m.replay(exported)))
        const read = async (store: ReturnType<typeof open>) => store.run(Effect.flatMap(EventLog, (log) => log.read({})))
        expect(await read(target)).toEqual(await read(source))
        expect((await read(target)).map((e) => e.author)).toEqual(["alice", undefined, "bob"])
        expect(await exportText(target)).toBe(exported)
        await Promise.all([source.close(), target.close()])
      })
    }
  }
})
