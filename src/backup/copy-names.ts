/**
 * The names of backup copies: the store file's name without its extension, then the UTC time the
 * copy was taken, to the second, in ISO 8601's basic form (no colons, which some file systems
 * refuse): `memledger-20260105T031500Z.db`. Only files named so, after this store's file, are the
 * copies `mem backup` manages: retention deletes nothing else, and purge erases in nothing else.
 */
import { basename } from "node:path"

/** The part of a copy's name that says whose copy it is: `memledger` for `memledger.db`. */
export const storeStem = (store: string): string => basename(store).replace(/\.[^.]*$/, "") || "memledger"

/** `2026-01-05T03:15:00.123Z` as `20260105T031500Z`. */
export const stamp = (at: Date): string => at.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "")

export const copyName = (stem: string, takenAt: Date): string => `${stem}-${stamp(takenAt)}.db`

const STAMPED = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.db$/

/** When the copy named `name` was taken, if it is one of `stem`'s copies; undefined for any other file. */
export const copyTakenAt = (stem: string, name: string): Date | undefined => {
  if (!name.startsWith(`${stem}-`)) return undefined
  const parts = STAMPED.exec(name.slice(stem.length + 1))
  if (parts === null) return undefined
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number) as [number, number, number, number, number, number]
  const takenAt = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  // A name such as ...-20260231T000000Z.db is no time this code wrote: not a copy it manages.
  return copyName(stem, takenAt) === name ? takenAt : undefined
}
