/**
 * Which backup copies to keep: the newest copy of each of the last 7 days that have copies, and
 * the newest of each of the last 4 ISO weeks that have copies, days and weeks in UTC. Counted in
 * days and weeks that have copies rather than back from today, so a server stopped for a month
 * still finds its last copies kept when it starts again, never none. A pure function of the
 * copies' times: whoever calls it chooses the clock.
 */
export const KEEP_DAYS = 7
export const KEEP_WEEKS = 4

export interface DatedCopy {
  readonly takenAt: Date
}

export const retention = <C extends DatedCopy>(copies: ReadonlyArray<C>): { readonly keep: C[]; readonly remove: C[] } => {
  const newestFirst = [...copies].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime())
  const kept = new Set([...newestOfEach(newestFirst, utcDay, KEEP_DAYS), ...newestOfEach(newestFirst, isoWeek, KEEP_WEEKS)])
  return { keep: newestFirst.filter((c) => kept.has(c)), remove: newestFirst.filter((c) => !kept.has(c)) }
}

/** The newest copy of each of the `count` latest periods that have one; `newestFirst` is sorted so. */
const newestOfEach = <C extends DatedCopy>(newestFirst: ReadonlyArray<C>, period: (at: Date) => string, count: number): C[] => {
  const seen = new Set<string>()
  const newest: C[] = []
  for (const copy of newestFirst) {
    const key = period(copy.takenAt)
    if (seen.has(key)) continue
    if (seen.size === count) break
    seen.add(key)
    newest.push(copy)
  }
  return newest
}

const utcDay = (at: Date): string => at.toISOString().slice(0, 10)

/**
 * The ISO 8601 week of a UTC time, as `2026-W02`: weeks start on Monday, and a week belongs to
 * the year its Thursday is in (so 2021-01-03 is in 2020-W53, and 2024-12-30 in 2025-W01).
 */
export const isoWeek = (at: Date): string => {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
  const weekday = day.getUTCDay() || 7
  const thursday = new Date(day.getTime() + (4 - weekday) * DAY_MS)
  const year = thursday.getUTCFullYear()
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7) + 1
  return `${year}-W${String(week).padStart(2, "0")}`
}

const DAY_MS = 86_400_000
