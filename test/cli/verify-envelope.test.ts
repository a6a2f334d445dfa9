/**
 * verify holds every envelope field to the hash chain, not only the payload: one event's origin,
 * agent, recorded_at, type or hash edited in place (its payload untouched, so its payload hash
 * still matches) makes `mem verify` report the chain broken at that very event.
 */
import { copyFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { beforeAll, describe, expect, it } from "vitest"
import { memAt, tempDir } from "../support/cli.js"

/** A copy of `source` whose event `seq` has `column` set to `value`, past the append-only trigger. */
const editedCopy = (source: string, seq: number, column: string, value: string): string => {
  const copy = join(tempDir(), "edited.db")
  copyFileSync(source, copy)
  const raw = new Database(copy)
  raw.exec("DROP TRIGGER events_append_only_update")
  expect(raw.prepare(`UPDATE events SET ${column} = ? WHERE seq = ?`).run(value, seq).changes).toBe(1)
  raw.close()
  return copy
}

describe("verify on an event whose envelope was edited", () => {
  let source = ""
  beforeAll(() => {
    source = join(tempDir(), "three.db")
    const run = memAt(source)
    for (const text of ["run the linter before committing", "the staging database resets nightly", "prefer pnpm in this repo"]) {
      expect(run("add", text, "--global").code).toBe(0)
    }
    expect(run("verify", "--json").json()).toMatchObject({ ok: true, events: 3 })
  })

  // A MemoryAdded payload still decodes as MemoryConfirmed (it carries a memoryId), so only the chain sees the new type.
  it.each([
    ["origin", "someone-else"],
    ["agent", "someone-else"],
    ["recorded_at", "2020-01-01T00:00:00.000Z"],
    ["type", "MemoryConfirmed"],
    ["hash", "0".repeat(64)]
  ])("reports the chain broken at that event when its %s is edited", (column, value) => {
    const result = memAt(editedCopy(source, 2, column, value))("verify", "--json")
    expect(result.code).toBe(1)
    expect(result.json()).toMatchObject({
      ok: false,
      events: 3,
      chain: { ok: false, brokenAt: 2, reason: "the envelope or the chain was altered" }
    })
  })

  it("names the event in its words", () => {
    const result = memAt(editedCopy(source, 2, "origin", "someone-else"))("verify")
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^FAILED: 3 events\nhash chain: {3}broken at #2: the envelope or the chain was altered/)
  })
})
