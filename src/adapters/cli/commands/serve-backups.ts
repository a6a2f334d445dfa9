/**
 * `mem serve --backup DIR`: a copy of the store into DIR at start when the newest there is a day
 * old or more (or there is none), else once it turns a day old, then every 24 hours
 * (backup-schedule.ts). Each is `mem backup DIR`, the command a person runs, in a process of its
 * own: copying (or, for a PostgreSQL store, exporting) and verifying a large store takes seconds
 * of CPU that the server's requests must not wait behind. A backup that fails is logged, and the
 * next one is still taken.
 */
import { spawn } from "node:child_process"
import { resolve } from "node:path"
import { Clock, Duration, Effect, Either } from "effect"
import { copiesIn } from "../../../backup/backup-folders.js"
import { BACKUP_EVERY_MS, firstBackupDelay } from "../../../backup/backup-schedule.js"
import { findLauncher } from "../../../install/launcher.js"
import { count } from "../format.js"

/**
 * Says when the first backup is (a line for the server's log), and returns the backups to run
 * for as long as the server does: interrupted, they end, and a backup in progress is stopped.
 */
export const planBackups = (store: string, folder: string, log: (line: string) => void) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const delay = firstBackupDelay(copiesIn(resolve(folder), store).at(-1)?.takenAt, now)
    log(`backups to ${folder}: ${delay === 0 ? "one now" : `the next at ${new Date(now + delay).toISOString()}`}, then every 24 hours`)
    return Effect.gen(function* () {
      yield* Effect.sleep(Duration.millis(delay))
      for (;;) {
        log(yield* backupProcess(store, folder))
        yield* Effect.sleep(Duration.millis(BACKUP_EVERY_MS))
      }
    })
  })

/**
 * Runs `mem backup DIR --json` on the store and says, as a log line, what it did. The store is
 * given in MEMLEDGER_DB, not as --db: a database's URL may hold its password, which a command
 * line shows to every user of the machine (ps). MEMLEDGER_URL is left out, as it would send the
 * command to a server.
 */
const backupProcess = (store: string, folder: string): Effect.Effect<string> =>
  Either.match(findLauncher(import.meta.url, store), {
    onLeft: (error) => Effect.succeed(`backup not taken: ${error.message}`),
    onRight: (launcher) =>
      Effect.async<string>((resume) => {
        const { MEMLEDGER_URL: _server, ...env } = process.env
        const child = spawn(launcher.node, [launcher.script, "backup", folder, "--json"], {
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...env, MEMLEDGER_DB: store }
        })
        let stdout = ""
        let stderr = ""
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
        child.on("error", (error) => resume(Effect.succeed(`backup not taken: ${error.message}`)))
        child.on("close", (code) => resume(Effect.succeed(code === 0 ? backupLine(stdout) : `backup failed: ${errorMessage(stderr)}`)))
        // The server is stopping: so does the backup, which keeps no copy it did not finish.
        return Effect.sync(() => void child.kill("SIGTERM"))
      })
  })

const backupLine = (stdout: string): string => {
  const r = JSON.parse(stdout) as { file: string; events: number; removed: ReadonlyArray<string> }
  return `backup: wrote ${r.file} (${count(r.events, "event")}, verified)${r.removed.length ? `; removed ${r.removed.join(", ")}` : ""}`
}

/** The message of `mem --json`'s error object, or what the process said. */
const errorMessage = (stderr: string): string => {
  try {
    return (JSON.parse(stderr) as { message: string }).message
  } catch {
    return stderr.trim()
  }
}
