// Commits the creation of a store, then its removal, over and over on one file: each creation
// is the transaction a process creating a new store commits (the store's application id and its
// tables at once), so that another process opening the file meets that commit many times.
// Stops at "stop" on stdin, printing how many creations it committed.
// Usage: node creation-flapper.mjs PATH
import { createInterface } from "node:readline"
import Database from "better-sqlite3"
import { APPLICATION_ID } from "../../dist/store/sqlite/database.js"

const [path] = process.argv.slice(2)
const db = new Database(path)
db.pragma("journal_mode = WAL")
db.pragma("synchronous = OFF")
db.pragma("busy_timeout = 15000")
const create = db.transaction(() => {
  db.pragma(`application_id = ${APPLICATION_ID}`)
  db.exec("CREATE TABLE events (seq INTEGER PRIMARY KEY, id TEXT NOT NULL)")
})
const remove = db.transaction(() => {
  db.exec("DROP TABLE events")
  db.pragma("application_id = 0")
})

let stop = false
const lines = createInterface({ input: process.stdin }).on("line", (line) => (stop = line.trim() === "stop"))
process.stdout.write("ready\n")
let created = 0
const round = () => {
  if (stop) {
    db.close()
    lines.close()
    process.stdout.write(`${JSON.stringify({ created })}\n`)
    return
  }
  // A few creations per turn of the event loop, which must turn to read "stop".
  for (let i = 0; i < 20; i++) {
    create.immediate()
    created++
    remove.immediate()
  }
  setImmediate(round)
}
round()
