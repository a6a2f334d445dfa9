/**
 * `mem backup [DIR]` and `mem backup restore FILE`: verified copies of the store (of a SQLite
 * file, the file; of a PostgreSQL database, an export of its log), and putting one back (docs/backups.md).
 */
import { Args, Command } from "@effect/cli"
import { Clock, Effect, Option } from "effect"
import { backupRefusal, defaultDbPath, restoreStore } from "../../../services/app.js"
import { Backups } from "../../../services/backups.js"
import type { BackupReport, RestoreReport } from "../../../store/store-copies.js"
import { isStoreUrl } from "../../../store/store-url.js"
import { count } from "../format.js"
import { printOutcome } from "../output.js"
import * as O from "../options.js"
import { mem, withStore, withStoreLocation } from "../root.js"

export const backupRestore = Command.make(
  "restore",
  { file: Args.text({ name: "file" }).pipe(Args.withDescription("the backup copy to put in place of the store")), json: O.json },
  (a) =>
    withStoreLocation((store) => Effect.flatMap(Clock.currentTimeMillis, (now) => restoreStore(store, a.file, new Date(now))), {
      json: a.json,
      human: restoreText
    })
).pipe(Command.withDescription(
    "Put a backup copy in place of the store once it verifies; the store as it was is moved aside, not deleted (a PostgreSQL store: replayed into an empty database only)"
  ))

export const backup = Command.make(
  "backup",
  {
    folder: Args.text({ name: "dir" }).pipe(
      Args.withDescription("the folder to keep copies in (default: backups in the store's state folder, see docs/backups.md)"),
      Args.optional
    ),
    json: O.json
  },
  (a) =>
    Effect.flatMap(mem, ({ db }) => {
      const printed = { json: a.json, human: backupText }
      // Refused before anything opens the store: the composition root opens no other store named by a URL.
      const refused = backupRefusal(Option.getOrElse(db, () => defaultDbPath()))
      if (refused !== undefined) return printOutcome(Effect.fail(refused), printed, db)
      return withStore(Effect.flatMap(Backups, (backups) => backups.backup(Option.getOrUndefined(a.folder))), printed)
    })
).pipe(
  Command.withDescription(
    "Write a verified copy of the store (of a PostgreSQL store, an export of its log) to DIR while others write; keep the last 7 daily and 4 weekly copies there"
  ),
  Command.withSubcommands([backupRestore])
)

const backupText = (r: BackupReport): string =>
  [
    `backed up ${count(r.events, "event")} to ${r.file} (verified)`,
    `kept ${count(r.kept.length, "copy", "copies")} of this store there${r.removed.length ? `; removed ${r.removed.join(", ")}` : ""}`
  ].join("\n")

const restoreText = (r: RestoreReport): string =>
  [
    `restored ${r.restored} (${count(r.events, "event")}, verified) to ${r.store}`,
    r.movedAside !== undefined
      ? `the store as it was is now ${r.movedAside}`
      : isStoreUrl(r.store)
        ? "its log was empty before: a database is restored into only when empty"
        : "there was no store there before"
  ].join("\n")
