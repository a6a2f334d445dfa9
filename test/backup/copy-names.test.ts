/**
 * A copy's name says whose copy it is and when it was taken; only files named so are managed
 * (retention deletes nothing else), and the time read back from a name is the time written in it.
 */
import { describe, expect, it } from "vitest"
import { firstBackupDelay } from "../../src/backup/backup-schedule.js"
import { copyName, copyNaming, copyTakenAt, storeStem } from "../../src/backup/copy-names.js"

const FILE_COPIES = copyNaming("memledger.db")
const EXPORT_COPIES = copyNaming("postgres://mem:s3cret@db.internal:5432/memledger?sslmode=require")

describe("copy names", () => {
  it("carry the store file's name and the UTC time to the second, with no colon", () => {
    const taken = new Date("2026-01-05T03:15:09.987Z")
    expect(copyName(copyNaming("/home/dev/.memledger/memledger.db"), taken)).toBe("memledger-20260105T031509Z.db")
    expect(copyTakenAt(FILE_COPIES, "memledger-20260105T031509Z.db")).toEqual(new Date("2026-01-05T03:15:09Z"))
  })

  it.each([
    ["notes.txt", "not a copy"],
    ["memledger-20260105T031509Z.db.partial", "a copy being written"],
    [".memledger-20260105T031509Z.db.partial", "a copy being written, hidden"],
    ["memledger-old-20260105T031509Z.db", "another store's copy"],
    ["work-20260105T031509Z.db", "another store's copy"],
    ["memledger-20260231T031509Z.db", "no such day"],
    ["memledger-2026-01-05T03:15:09Z.db", "another time format"]
  ])("leave %s alone (%s)", (name) => {
    expect(copyTakenAt(FILE_COPIES, name)).toBeUndefined()
  })

  it("of a PostgreSQL store are exports named after its database, never its host, user or password", () => {
    const taken = new Date("2026-01-05T03:15:09Z")
    expect(EXPORT_COPIES).toEqual({ stem: "memledger", extension: ".jsonl" })
    expect(copyName(EXPORT_COPIES, taken)).toBe("memledger-20260105T031509Z.jsonl")
    expect(copyTakenAt(EXPORT_COPIES, "memledger-20260105T031509Z.jsonl")).toEqual(taken)
    // A file's copy and a database's are not each other's, even under the same name.
    expect(copyTakenAt(EXPORT_COPIES, "memledger-20260105T031509Z.db")).toBeUndefined()
    expect(copyTakenAt(FILE_COPIES, "memledger-20260105T031509Z.jsonl")).toBeUndefined()
    expect(copyNaming("postgres://db.internal/team%2Fone").stem).toBe("team_one")
    expect(copyNaming("postgres://db.internal").stem).toBe("memledger")
  })

  it("take the stem from the file name, whatever its extension, and a default for none", () => {
    expect(storeStem("work.sqlite")).toBe("work")
    expect(storeStem("/srv/team")).toBe("team")
    expect(storeStem(".db")).toBe("memledger")
  })
})

describe("serve's first backup", () => {
  const now = Date.parse("2026-03-01T12:00:00Z")
  it("is taken at once when there is no copy, or the newest is a day old", () => {
    expect(firstBackupDelay(undefined, now)).toBe(0)
    expect(firstBackupDelay(new Date("2026-02-28T12:00:00Z"), now)).toBe(0)
    expect(firstBackupDelay(new Date("2026-02-20T00:00:00Z"), now)).toBe(0)
  })

  it("waits until the newest copy turns a day old, and a day at most", () => {
    expect(firstBackupDelay(new Date("2026-03-01T06:00:00Z"), now)).toBe(18 * 3_600_000)
    expect(firstBackupDelay(new Date("2026-03-05T00:00:00Z"), now)).toBe(86_400_000)
  })
})
