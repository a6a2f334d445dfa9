/**
 * Cues are forgotten like everything else: forgetting the conversation that taught a cue takes
 * it back and undo restores it; a forgotten memory's cues find nothing; purge erases cue text
 * and the recall queries of forgotten conversations from the log and the store's files. On every
 * store.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { tempDir } from "../support/cli.js"
import { databaseFilesHold } from "../support/postgres.js"
import { Commands, describeEachStore, Maintenance, Queries, Retrieval, runAt, T0, type ServiceStore } from "../support/services.js"

const APP = "github.com/acme/app"
const SESSION = { origin: "claude-code:session/teacher", agent: "claude-code" }
const PERSON = { origin: "cli", agent: "cli" }

/** A memory, and a conversation that asked `question`, missed, found it another way, and said it worked. */
const taught = (db: string, question: string) =>
  runAt(
    db,
    T0,
    Effect.gen(function* () {
      const commands = yield* Commands
      const retrieval = yield* Retrieval
      const added = yield* commands.add({ content: "Handlers read the time from the Clock service", category: "convention", scope: "project", project: APP }, PERSON)
      const first = yield* retrieval.search({ query: question, project: APP }, SESSION)
      expect(first.results).toEqual([])
      yield* retrieval.search({ query: "clock service", project: APP }, SESSION)
      yield* commands.outcome([added.id], "worked", {}, SESSION)
      return added.id
    })
  )

const found = (db: string, query: string) =>
  runAt(db, T0 + 60_000, Effect.map(Effect.flatMap(Retrieval, (r) => r.search({ query, project: APP }, { origin: "codex:thread/asker", agent: "codex" })), (s) => s.results.map((r) => r.memory.id)))

/**
 * Whether `text` is still kept: in the log, as an export shows it, and below the port in the
 * store's own files: SQLite's file and its WAL, PostgreSQL's database files where they are on
 * this machine.
 */
const holds = async (store: ServiceStore, db: string, text: string) => {
  const file = join(tempDir(), "log.jsonl")
  await runAt(db, T0, Effect.flatMap(Maintenance, (m) => m.exportTo(file)))
  const files = store.name === "SQLite" ? [file, db, `${db}-wal`] : [file]
  if (files.filter(existsSync).some((f) => readFileSync(f).includes(text))) return true
  return store.name === "PostgreSQL" && (await databaseFilesHold(db, text)) === true
}

describeEachStore((store) => {
  describe("a learned cue", () => {
    it("finds its memory, and goes and comes back with the conversation that taught it", async () => {
      const db = await store.fresh()
      const id = await taught(db, "where do handlers get the current timestamp")
      expect(await found(db, "where do handlers get the current timestamp")).toEqual([id])
      const cues = await runAt(db, T0, Effect.flatMap(Queries, (q) => q.cues(id)))
      expect(cues.cues).toMatchObject([{ text: "where do handlers get the current timestamp", source: "learned", origin: SESSION.origin }])

      await runAt(db, T0, Effect.flatMap(Commands, (c) => c.forgetConversation(SESSION.origin, false, PERSON)))
      expect(await found(db, "where do handlers get the current timestamp")).toEqual([])
      await runAt(db, T0, Effect.flatMap(Commands, (c) => c.forgetConversation(SESSION.origin, true, PERSON)))
      expect(await found(db, "where do handlers get the current timestamp")).toEqual([id])
    })

    it("finds nothing once its memory is forgotten, and again once it is restored", async () => {
      const db = await store.fresh()
      const id = await taught(db, "where do handlers get the current timestamp")
      await runAt(db, T0, Effect.flatMap(Commands, (c) => c.forget(id, "wrong", PERSON)))
      expect(await found(db, "current timestamp handlers")).toEqual([])
      await runAt(db, T0, Effect.flatMap(Commands, (c) => c.restore(id, "right after all", PERSON)))
      expect(await found(db, "current timestamp handlers")).toEqual([id])
    })

    it("is dropped by a person, and the drop is an event that replays", async () => {
      const db = await store.fresh()
      const id = await taught(db, "where do handlers get the current timestamp")
      await runAt(db, T0, Effect.flatMap(Commands, (c) => c.dropCue(id, "Where do handlers get the current timestamp?", PERSON)))
      expect(await found(db, "where do handlers get the current timestamp")).toEqual([])
      await runAt(db, T0, Effect.flatMap(Maintenance, (m) => m.rebuild()))
      expect(await found(db, "where do handlers get the current timestamp")).toEqual([])
      const refused = await runAt(db, T0, Effect.flip(Effect.flatMap(Commands, (c) => c.dropCue(id, "no such cue", PERSON))))
      expect(refused._tag).toBe("InvalidInput")
    })
  })

  describe("purge", () => {
    it("erases a forgotten conversation's recall queries and the cues they taught", async () => {
      const db = await store.fresh()
      const marker = "qwzx-timestamp-7c1e"
      await taught(db, `where do handlers get the ${marker}`)
      await runAt(db, T0, Effect.flatMap(Commands, (c) => c.forgetConversation(SESSION.origin, false, PERSON)))
      expect(await holds(store, db, marker)).toBe(true)
      await runAt(db, T0, Effect.flatMap(Maintenance, (m) => m.purge({ memories: false })))
      expect(await holds(store, db, marker)).toBe(false)
    })

    it("erases a forgotten memory's written cues with --memories", async () => {
      const db = await store.fresh()
      const marker = "plvk-cue-3d9a"
      await runAt(
        db,
        T0,
        Effect.gen(function* () {
          const c = yield* Commands
          const added = yield* c.add({ content: "Deploy with make deploy", scope: "global", project: null, cues: [`how to ship ${marker}`] }, PERSON)
          yield* c.forget(added.id, "outdated", PERSON)
        })
      )
      expect(await holds(store, db, marker)).toBe(true)
      await runAt(db, T0, Effect.flatMap(Maintenance, (m) => m.purge({ memories: true })))
      expect(await holds(store, db, marker)).toBe(false)
    })
  })
})
