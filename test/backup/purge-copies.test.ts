/**
 * A purge reaches the backup copies the store manages: the copies in its default backup folder
 * and in every folder `mem backup DIR` wrote to lose the text the store erased, even text
 * forgotten after the copy was taken, down to the bytes of their files; a copy of another log
 * is left as it was and named, since it may still hold forgotten text.
 */
import { copyFileSync, existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { defaultBackupFolder } from "../../src/backup/backup-folders.js"
import { mem, memAt, tempDir } from "../support/cli.js"

const IN_CONVERSATION = "jv3-conversation-marker-5pd"
const IN_MEMORY = "hw8-memory-marker-2kq"

const holds = (file: string, marker: string) => [file, `${file}-wal`, `${file}-shm`].filter(existsSync).some((f) => readFileSync(f).includes(marker))

// About twenty `mem` processes one after another: more than the default minute on a busy machine.
it("erases in every managed copy what the store erased, and names a copy it could not purge", { timeout: 180_000 }, () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const run = memAt(db)
  for (const text of ["the build uses Node 20", "deploy with make deploy", "answer in English"]) run("add", text, "--global")
  expect(run("add", `the staging password is ${IN_CONVERSATION}`, "--global", "--origin", "claude-code:session/leak").code).toBe(0)
  const forgotten = run("add", `the old token was ${IN_MEMORY}`, "--global", "--json").json().id as string

  const inDefault = run("backup", "--json").json().file as string
  const elsewhere = join(dir, "offsite")
  const inElsewhere = run("backup", elsewhere, "--json").json().file as string
  expect(inDefault.startsWith(defaultBackupFolder(db))).toBe(true)
  // A copy of another store's log, under this store's copies' name: found, but not this log.
  const other = memAt(join(dir, "other", "m.db"))
  other("add", `another store's note ${IN_CONVERSATION}`, "--global")
  const foreign = join(elsewhere, "m-20200101T000000Z.db")
  copyFileSync(other("backup", join(dir, "other-copies"), "--json").json().file, foreign)

  // Forgotten after the copies were taken: the copies themselves know nothing of it.
  expect(run("forget-conversation", "claude-code:session/leak").code).toBe(0)
  expect(run("forget", forgotten).code).toBe(0)
  for (const copy of [inDefault, inElsewhere]) expect(holds(copy, IN_CONVERSATION) && holds(copy, IN_MEMORY)).toBe(true)

  expect(run("purge", "--memories").stdout).toContain("it erases the same in 3 backup copies of this store")
  const purged = run("purge", "--memories", "--yes", "--json")
  expect(purged.code, purged.stderr).toBe(0)
  expect(purged.json()).toMatchObject({
    done: true,
    erasedEvents: 2,
    copies: [
      { file: inDefault, erasedEvents: 2 },
      { file: foreign, problem: expect.stringContaining("its log is not a copy of this store's, so it was not purged") },
      { file: inElsewhere, erasedEvents: 2 }
    ]
  })

  for (const file of [db, inDefault, inElsewhere]) {
    expect(holds(file, IN_CONVERSATION), file).toBe(false)
    expect(holds(file, IN_MEMORY), file).toBe(false)
  }
  expect(holds(foreign, IN_CONVERSATION)).toBe(true)
  for (const copy of [inDefault, inElsewhere]) {
    expect(mem(["--db", copy, "verify", "--json"]).json()).toMatchObject({ ok: true, events: 5 })
    expect(mem(["--db", copy, "list", "--json"]).json()).toHaveLength(3)
  }

  // Run again: nothing left to erase anywhere, and the copy it cannot purge is still named.
  const again = run("purge", "--memories", "--yes")
  expect(again.stdout).toContain("nothing to purge: no forgotten conversation or memory holds text; nothing was erased")
  expect(again.stdout).toContain(`backup copy ${foreign} may still hold forgotten text: its log is not a copy of this store's`)
})
