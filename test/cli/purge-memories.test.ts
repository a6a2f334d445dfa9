/**
 * `mem purge --memories --yes` makes forgetting a memory physical: its own text is in no file of
 * the store afterwards (the database, its WAL, its shared-memory index), while the memories kept
 * and the hash chain are untouched. That holds too for text on pages the store had freed before
 * the purge, which only rewriting the whole file (the vacuum) reaches.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { memAt, tempDir } from "../support/cli.js"

const MARKER = "vq7k-forgotten-marker-2b9e"

const storeFiles = (db: string) => [db, `${db}-wal`, `${db}-shm`].filter(existsSync)
const holdsMarker = (db: string) => storeFiles(db).some((f) => readFileSync(f).includes(MARKER))

/** Purges a store of three kept memories and one forgotten, `secret`, and checks what is left. */
const purgeForgotten = (secret: string, ...forgetOptions: string[]) => {
  const db = join(tempDir(), "m.db")
  const run = memAt(db)
  for (const text of ["the build uses Node 20", "deploy with make deploy", "answer in English"]) run("add", text, "--global")
  const id = run("add", secret, "--global", "--json").json().id
  expect(run("forget", id, ...forgetOptions, "--json").code).toBe(0)
  expect(holdsMarker(db)).toBe(true)

  expect(run("purge", "--memories", "--yes", "--json").json()).toMatchObject({ done: true, memories: 1, erasedEvents: 1 })
  expect(storeFiles(db)).toContain(db)
  expect(holdsMarker(db)).toBe(false)
  expect(run("verify", "--json").json()).toMatchObject({ ok: true, events: 5 })
  expect(run("list", "--json").json()).toHaveLength(3)
}

it("leaves no byte of a forgotten memory's text in the database, its WAL or its shared memory", () => {
  purgeForgotten(`the staging password is ${MARKER}`)
})

// A text this long ends on an overflow page. Forgetting with a reason rewrites the memory's row,
// which frees that page, text and all, to the file's free list before the purge runs.
it("leaves none either of a long memory's text on pages freed before the purge", () => {
  purgeForgotten(`${"notes about the staging server and its setup ".repeat(110)}${MARKER}`, "--reason", "no longer true")
})
