/**
 * A file large enough for the bulk import's writer thread (src/store/sqlite/writer-thread.ts), through
 * the CLI bundle as a user runs it: the thread loads SQLite from the bundle's own install, and
 * the store it leaves verifies and holds every line, restatements confirmed, and the new
 * memories' ids ascend in file order (makeImportIdFactory), so the id indexes grow at one end.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { WRITER_THREAD_MIN_LINES } from "../../src/store/sqlite/transfer/import-memories.js"
import { memAt, tempDir } from "../support/cli.js"

it("imports a file the writer thread writes, and the store verifies", () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const count = WRITER_THREAD_MIN_LINES + 500
  // Every hundredth line says again, in capitals, what the line before it said.
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ content: i % 100 === 99 ? `MEMORY ${i - 1} ABOUT THE BUILD CACHE` : `Memory ${i} about the build cache`, project: null })
  )
  writeFileSync(join(dir, "m.jsonl"), lines.join("\n"))
  const mem = memAt(db)
  const imported = mem("import", join(dir, "m.jsonl"), "--json")
  expect(imported.code).toBe(0)
  const confirmations = Math.floor(count / 100)
  expect(imported.json()).toMatchObject({ imported: count - confirmations, confirmed: confirmations })
  const ids: string[] = imported.json().ids
  expect(ids).toHaveLength(count)
  // The count starts at a random place and may wrap once; a confirmation repeats an older id.
  const added = ids.filter((_, i) => i % 100 !== 99)
  expect(added.filter((id, i) => i > 0 && id < added[i - 1]!).length).toBeLessThanOrEqual(1)
  const verified = mem("verify", "--json")
  expect(verified.code).toBe(0)
  expect(verified.json()).toMatchObject({ ok: true, events: count })
}, 120_000)
