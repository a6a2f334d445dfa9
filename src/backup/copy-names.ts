/**
 * The names of backup copies: whose copy it is, then the UTC time it was taken, to the second, in
 * ISO 8601's basic form (no colons, which some file systems refuse), then what kind of file it is.
 * A SQLite store's copies are copies of its file, named after it: `memledger-20260105T031500Z.db`
 * for `memledger.db`. A store named by a URL (a PostgreSQL database) has no file: its copies are
 * exports of its log, named after its database: `memledger-20260105T031500Z.jsonl` for
 * `postgres://db.internal/memledger`. Only files named so, after this store, are the copies `mem
 * backup` manages: retention deletes nothing else, and purge erases in nothing else.
 */
import { basename } from "node:path"
import { isStoreUrl } from "../store/store-url.js"

/** What a store's copies are called: the part that says whose they are, and their extension. */
export interface CopyNaming {
  readonly stem: string
  readonly extension: ".db" | ".jsonl"
}

/** A file's copies are SQLite files; a database's are exports (`mem export`'s format). */
export const copyNaming = (store: string): CopyNaming =>
  isStoreUrl(store) ? { stem: databaseName(store), extension: ".jsonl" } : { stem: storeStem(store), extension: ".db" }

/** The part of a file's copies' names that says whose they are: `memledger` for `memledger.db`. */
export const storeStem = (store: string): string => basename(store).replace(/\.[^.]*$/, "") || "memledger"

/**
 * A database's name from its URL, in characters any file system takes (never its host, user or
 * password): `memledger` for `postgres://mem:pw@db.internal:5432/memledger?sslmode=require`.
 */
const databaseName = (url: string): string => {
  let name = ""
  try {
    name = decodeURIComponent(new URL(url).pathname.split("/").filter((part) => part.length > 0).at(-1) ?? "")
  } catch {
    // Not a URL that parses: its copies get the default name.
  }
  return name.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "") || "memledger"
}

/** `2026-01-05T03:15:00.123Z` as `20260105T031500Z`. */
export const stamp = (at: Date): string => at.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "")

export const copyName = (naming: CopyNaming, takenAt: Date): string => `${naming.stem}-${stamp(takenAt)}${naming.extension}`

const STAMPED = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z(\.[a-z]+)$/

/** When the copy named `name` was taken, if it is one of this store's copies; undefined for any other file. */
export const copyTakenAt = (naming: CopyNaming, name: string): Date | undefined => {
  if (!name.startsWith(`${naming.stem}-`)) return undefined
  const parts = STAMPED.exec(name.slice(naming.stem.length + 1))
  if (parts === null) return undefined
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const takenAt = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  // A name such as ...-20260231T000000Z.db is no time this code wrote: not a copy it manages.
  return copyName(naming, takenAt) === name ? takenAt : undefined
}
