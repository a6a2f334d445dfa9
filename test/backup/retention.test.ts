/**
 * Which copies `mem backup` keeps, as a pure function of their times: the newest of each of the
 * last 7 days with copies and of each of the last 4 ISO weeks with copies. The clock is the
 * test's: sixty days of simulated daily backups, each followed by the retention the command
 * applies, as the folder would see them.
 */
import { describe, expect, it } from "vitest"
import { isoWeek, retention } from "../../src/backup/retention.js"

const DAY_MS = 86_400_000
const at = (iso: string) => new Date(iso)
const days = (from: string, count: number, time = "03:00:00") =>
  Array.from({ length: count }, (_, i) => new Date(Date.parse(`${from}T${time}Z`) + i * DAY_MS))
const isoDates = (copies: ReadonlyArray<{ takenAt: Date }>) => copies.map((c) => c.takenAt.toISOString()).sort()

/** Takes a copy at each time, in order, keeping only what retention keeps after each one, as the folder would. */
const simulate = (times: ReadonlyArray<Date>, check?: (kept: ReadonlyArray<{ takenAt: Date }>, now: Date) => void) => {
  let folder: Array<{ takenAt: Date }> = []
  for (const now of times) {
    folder = retention([...folder, { takenAt: now }]).keep
    check?.(folder, now)
  }
  return folder
}

describe("retention over sixty days of daily backups", () => {
  const sixtyDays = days("2026-01-01", 60) // Thursday 1 January to Sunday 1 March 2026

  it("keeps the last 7 days and the newest copy of each of the 3 weeks before them", () => {
    expect(isoDates(simulate(sixtyDays))).toEqual([
      "2026-02-08T03:00:00.000Z", // Sunday of 2026-W06
      "2026-02-15T03:00:00.000Z", // Sunday of 2026-W07
      "2026-02-22T03:00:00.000Z", // Sunday of 2026-W08
      ...days("2026-02-23", 7).map((d) => d.toISOString()) // the last seven days, 2026-W09
    ])
  })

  it("never holds more than 7 + 4 copies, and always the one just taken", () => {
    simulate(sixtyDays, (kept, now) => {
      expect(kept.length).toBeLessThanOrEqual(11)
      expect(kept.map((c) => c.takenAt)).toContainEqual(now)
      expect(new Set(kept.map((c) => isoWeek(c.takenAt))).size).toBeLessThanOrEqual(4)
    })
  })

  it("keeps the newest copy of a day that has several", () => {
    const twiceADay = sixtyDays.flatMap((d) => [d, new Date(d.getTime() + 12 * 3_600_000)])
    const kept = simulate(twiceADay)
    expect(kept).toHaveLength(10)
    expect(kept.every((c) => c.takenAt.getUTCHours() === 15)).toBe(true)
  })

  it("counts days that have copies, so a server stopped for weeks loses none of its last copies", () => {
    const beforeTheGap = days("2026-01-01", 40) // to 9 February
    const afterTheGap = days("2026-02-27", 3) // stopped 17 days, then 27 February to 1 March
    expect(isoDates(simulate([...beforeTheGap, ...afterTheGap]))).toEqual([
      "2026-02-01T03:00:00.000Z", // Sunday of 2026-W05
      "2026-02-06T03:00:00.000Z",
      "2026-02-07T03:00:00.000Z",
      "2026-02-08T03:00:00.000Z",
      "2026-02-09T03:00:00.000Z", // Monday of 2026-W07: the seven days with copies begin on 6 February
      "2026-02-27T03:00:00.000Z",
      "2026-02-28T03:00:00.000Z",
      "2026-03-01T03:00:00.000Z"
    ])
  })

  it("removes exactly what it does not keep, whatever order the copies are listed in", () => {
    const listed = [...sixtyDays].reverse().map((takenAt, i) => ({ takenAt, name: `copy-${i}` }))
    const { keep, remove } = retention(listed)
    expect(keep).toHaveLength(10)
    expect(remove).toHaveLength(50)
    expect(new Set([...keep, ...remove]).size).toBe(60)
  })

  it("keeps a lone copy, and keeps nothing of nothing", () => {
    expect(retention([{ takenAt: at("2026-01-01T00:00:00Z") }]).remove).toEqual([])
    expect(retention([])).toEqual({ keep: [], remove: [] })
  })
})

describe("ISO weeks", () => {
  it.each([
    ["2026-01-01T12:00:00Z", "2026-W01"], // a Thursday: its week is the year's first
    ["2021-01-03T23:59:59Z", "2020-W53"], // a Sunday whose Thursday was in 2020
    ["2024-12-30T00:00:00Z", "2025-W01"], // a Monday whose Thursday is in 2025
    ["2026-03-01T03:00:00Z", "2026-W09"],
    ["2026-03-02T00:00:00Z", "2026-W10"]
  ])("%s is in %s", (time, week) => {
    expect(isoWeek(at(time))).toBe(week)
  })
})
