/**
 * `mem import -` reads standard input as a stream: lines that arrive through a pipe a few at a
 * time, with the pipe empty but open in between, are all imported, as `producer | mem import -`
 * promises. (Reading fd 0 in one synchronous call failed with EAGAIN on such a pipe.)
 */
import { spawn } from "node:child_process"
import { join, resolve } from "node:path"
import { expect, it } from "vitest"
import { eventsIn, MEM_BIN, memAt, tempDir } from "../support/cli.js"

const WRITER = resolve("test/support/slow-writer.mjs")
const LINES = 12

it("imports every line of a pipe written slowly by another process", async () => {
  const db = join(tempDir(), "m.db")
  const writer = spawn(process.execPath, [WRITER, db, String(LINES)], { stdio: ["ignore", "pipe", "inherit"] })
  const importer = spawn(process.execPath, [MEM_BIN, "--db", db, "import", "-", "--json"], {
    stdio: [writer.stdout, "pipe", "pipe"],
    env: { ...process.env, MEMLEDGER_DB: "" }
  })
  let stdout = ""
  let stderr = ""
  importer.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  importer.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const code = await new Promise<number | null>((done) => importer.on("close", done))
  writer.kill()
  expect(stderr).toBe("")
  expect(code).toBe(0)
  expect(JSON.parse(stdout)).toMatchObject({ imported: LINES })
  expect(eventsIn(memAt(db))).toBe(LINES)
})
