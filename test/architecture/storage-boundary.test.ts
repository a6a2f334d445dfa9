/**
 * The storage boundary: every file that speaks a store's language (imports its driver, prepares
 * SQL, holds DDL or a query) lives in that store's folder (`sqlite`, `postgres`), the stores
 * share nothing but the ports and the pure code beside them, and the domain reaches a store only
 * through the ports in src/store. The one exception is the composition root, which picks the store.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { expect, test } from "vitest"

const SRC = join(import.meta.dirname, "../../src")
const COMPOSITION_ROOT = "services/app.ts"

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : []
  })

/** What makes a file speak SQLite, each with the reason it is reported. */
const SIGNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/from\s+["'](better-sqlite3|sqlite-vec)["']/, "imports the SQLite driver or extension"],
  [/\.prepare\(|\.pragma\(|\.exec\(\s*`/, "prepares or runs SQL"],
  [/\b(CREATE|DROP)\s+(TABLE|INDEX|VIRTUAL TABLE|TRIGGER)\b/, "holds DDL"],
  [/\bSELECT\s+[\w*(),\s.]+\s+FROM\s+\w+/, "holds a query"],
  [/from\s+["'][^"']*\/sqlite\/[^"']*["']/, "imports from a sqlite folder"]
]

const STORE_FOLDERS = ["sqlite", "postgres"]
const storeOf = (path: string): string | undefined => STORE_FOLDERS.find((store) => path.split("/").includes(store))

const outsideSqlite = sourceFiles(SRC)
  .map((path) => relative(SRC, path))
  .filter((path) => storeOf(path) === undefined && path !== COMPOSITION_ROOT)

test("no file outside a store's folder touches SQL", () => {
  const offenders = outsideSqlite.flatMap((path) => {
    const text = readFileSync(join(SRC, path), "utf8")
    return SIGNS.filter(([sign]) => sign.test(text)).map(([, reason]) => `${path}: ${reason}`)
  })
  expect(offenders).toEqual([])
})

test("the check sees SQLite where it is: every sign is found in the SQLite store's own files", () => {
  const inside = sourceFiles(join(SRC, "store/sqlite")).map((path) => readFileSync(path, "utf8"))
  for (const [sign, reason] of SIGNS.slice(0, 4)) expect(inside.some((text) => sign.test(text)), reason).toBe(true)
  expect(outsideSqlite.length).toBeGreaterThan(100)
})

test("the PostgreSQL store neither loads SQLite nor imports the SQLite store's code", () => {
  const offenders = sourceFiles(join(SRC, "store/postgres")).flatMap((path) => {
    const text = readFileSync(path, "utf8")
    return [SIGNS[0]!, SIGNS[4]!].filter(([sign]) => sign.test(text)).map(([, reason]) => `${relative(SRC, path)}: ${reason}`)
  })
  expect(offenders).toEqual([])
})
