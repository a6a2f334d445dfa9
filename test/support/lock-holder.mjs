// Holds a store's write lock (BEGIN IMMEDIATE) as a busy agent's server might: says "locked"
// once it has it, and keeps it until its stdin closes (the test releasing it, or gone), then
// ends the transaction with END (COMMIT or ROLLBACK) and exits.
// Usage: node lock-holder.mjs PATH END
import Database from "better-sqlite3"

const [path, end] = process.argv.slice(2)
const db = new Database(path)
db.exec("BEGIN IMMEDIATE")
process.stdout.write("locked\n")
process.stdin.resume()
process.stdin.on("end", () => {
  db.exec(end)
  db.close()
})
