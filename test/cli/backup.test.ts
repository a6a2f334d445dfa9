/**
 * `mem backup [DIR]` as a person runs it: a verified, owner-only copy named by the UTC second,
 * in the store's own backup folder unless DIR is given; retention in that folder deletes only
 * this store's older copies; a store named by a URL that is not PostgreSQL's, a missing store,
 * and a DIR that is a file are refused, each saying what to do (PostgreSQL's backups:
 * postgres-backup.test.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { defaultBackupFolder } from "../../src/backup/backup-folders.js"
import { createStore, mem, memAt, tempDir } from "../support/cli.js"

const storeWithNotes = () => {
  const db = join(tempDir(), "m.db")
  const run = memAt(db)
  for (const text of ["the build uses Node 20", "deploy with make deploy"]) expect(run("add", text, "--global").code).toBe(0)
  return { db, run }
}

describe("mem backup", () => {
  it("writes a verified, owner-only copy named by the UTC second into the store's backup folder", () => {
    const { db, run } = storeWithNotes()
    const started = Date.now()
    const result = run("backup", "--json")
    expect(result.code, result.stderr).toBe(0)
    const report = result.json() as { file: string; events: number; kept: string[]; removed: string[] }
    const folder = defaultBackupFolder(db)
    expect(report.file.startsWith(`${folder}/m-`)).toBe(true)
    expect(report).toMatchObject({ events: 2, removed: [] })
    expect(report.kept).toEqual([report.file.slice(folder.length + 1)])
    const stamp = /m-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.db$/.exec(report.file)!
    const takenAt = Date.UTC(+stamp[1]!, +stamp[2]! - 1, +stamp[3]!, +stamp[4]!, +stamp[5]!, +stamp[6]!)
    expect(Math.abs(takenAt - started)).toBeLessThan(60_000)
    expect(statSync(report.file).mode & 0o777).toBe(0o600)
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    // Only the copy: no half-written file and nothing SQLite keeps beside an open one.
    expect(readdirSync(folder)).toEqual(report.kept)
    expect(mem(["--db", report.file, "verify", "--json"]).json()).toMatchObject({ ok: true, events: 2 })
    expect(run("backup").stdout).toMatch(/^backed up 2 events to .*\/m-\d{8}T\d{6}Z\.db \(verified\)\nkept \d cop(y|ies) of this store there/)
  })

  it("keeps the newest of each of the last 7 days and 4 weeks of this store's copies in DIR, and deletes nothing else", () => {
    const { run } = storeWithNotes()
    const folder = join(tempDir(), "copies")
    mkdirSync(folder)
    // Twenty days of older copies, Wednesday 1 to Monday 20 January 2025 (never read, only named).
    const older = Array.from({ length: 20 }, (_, i) => `m-202501${String(i + 1).padStart(2, "0")}T030000Z.db`)
    const others = ["notes.txt", "work-20250101T030000Z.db", ".m-20250101T030000Z.db.partial", "m-20250101T030000Z.db.bak"]
    for (const name of [...older, ...others]) writeFileSync(join(folder, name), "not a store")
    const result = run("backup", folder, "--json")
    expect(result.code, result.stderr).toBe(0)
    const { file, kept, removed } = result.json() as { file: string; kept: string[]; removed: string[] }
    // The new copy's day and the six latest before it; 2025-W04's, W03's and W02's newest: the 20th, 19th and 12th.
    const keptOlder = [20, 19, 18, 17, 16, 15, 12].map((day) => `m-202501${day}T030000Z.db`)
    expect(kept).toEqual([file.slice(folder.length + 1), ...keptOlder])
    expect(removed.sort()).toEqual(older.filter((name) => !keptOlder.includes(name)).sort())
    expect(readdirSync(folder).sort()).toEqual([...kept, ...others].sort())
  })

  it("refuses a store named by a URL that is not PostgreSQL's, pointing to mem export, without showing its password", () => {
    const result = mem(["--db", "mysql://app:s3cret-Example9@db.internal:3306/app", "backup", "--json"])
    expect(result.code).toBe(1)
    const error = JSON.parse(result.stderr) as { error: string; message: string }
    expect(error.error).toBe("BackupNotAvailable")
    expect(error.message).toMatch(/mysql:\/\/ store .*'mem export FILE'.*'mem replay FILE'/)
    expect(result.stderr).not.toContain("s3cret")
    const restore = mem(["--db", "mysql://app:s3cret-Example9@db.internal/app", "backup", "restore", "x.db"])
    expect(restore.code).toBe(1)
    expect(restore.stderr).toMatch(/mysql:\/\/ store .*'mem replay FILE'/)
    expect(restore.stderr).not.toContain("s3cret")
  })

  it("says a PostgreSQL store it cannot reach is unusable, without showing its password", () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    for (const args of [["backup", "--json"], ["backup", "restore", "x.jsonl", "--json"]]) {
      const result = mem(["--db", "postgres://app:s3cret-Example9@127.0.0.1:1/app", ...args])
      expect(result.code).toBe(1)
      expect(result.stderr).not.toContain("s3cret")
    }
  })

  it("refuses a missing store and creates nothing, not even the backup folder", () => {
    const db = join(tempDir(), "none", "m.db")
    const result = mem(["--db", db, "backup", "--json"])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr).error).toBe("StoreNotFound")
    expect(existsSync(db)).toBe(false)
    expect(existsSync(defaultBackupFolder(db))).toBe(false)
  })

  it("refuses a DIR that is a file, and leaves it as it was", () => {
    const db = createStore(join(tempDir(), "m.db"))
    const notAFolder = join(tempDir(), "file")
    writeFileSync(notAFolder, "mine")
    const result = mem(["--db", db, "backup", notAFolder])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`no backup was kept in ${notAFolder}: it is not a folder`)
    expect(readFileSync(notAFolder, "utf8")).toBe("mine")
  })
})
