// Opens one store file OPENS times in a row, as every `mem` command does, and prints one JSON
// line: every open that failed, with why. Says "ready" and waits for "go" on stdin first, so
// that it runs while another process creates the store over and over.
// Usage: node identity-reader.mjs PATH OPENS
import { Either } from "effect"
import { openDatabase } from "../../dist/store/sqlite/database.js"
import { readyThenGo } from "./start-signal.mjs"

const [path, opensText] = process.argv.slice(2)
await readyThenGo()

const failures = []
for (let i = 0; i < Number(opensText); i++) {
  const db = openDatabase(path)
  if (Either.isLeft(db)) failures.push(db.left.message)
  else db.right.close()
}
process.stdout.write(`${JSON.stringify({ failures })}\n`)
