/**
 * Small helpers every bench shares: medians (the machine is shared and noisy, so single runs
 * and means mislead), human-readable sizes, scratch folders that are always removed, and
 * environment facts to print next to the figures.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { cpus } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  if (sorted.length === 0) return Number.NaN
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** CPU seconds (user + system) this process spent since `since`: steadier than wall time on a busy machine. */
export const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const { user, system } = process.cpuUsage(since)
  return (user + system) / 1e6
}

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })

export const environment = (): string =>
  `node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? "unknown cpu"}), ${process.platform}`

/**
 * The repository root, found from this file: the bundle runs from bench/.out/, the sources
 * from bench/support/; both are two levels below it.
 */
export const repoRoot = (): string => join(dirname(fileURLToPath(import.meta.url)), "..", "..")

/** A fresh folder under bench/.data/ (git-ignored), removed when `f` settles, even if it throws. */
export const withScratchDir = async <A>(label: string, f: (dir: string) => Promise<A>): Promise<A> => {
  const base = join(repoRoot(), "bench", ".data")
  mkdirSync(base, { recursive: true })
  const dir = mkdtempSync(join(base, `${label}-`))
  try {
    return await f(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Reads `--name text` from the bench's arguments; undefined when it is not given. */
export const stringArg = (name: string): string | undefined => {
  const args = process.argv.slice(2)
  const i = args.indexOf(`--${name}`)
  return i < 0 ? undefined : args[i + 1]
}

/** Reads `--name value` from the bench's arguments, falling back to `fallback`. */
export const intArg = (name: string, fallback: number): number => {
  const args = process.argv.slice(2)
  const i = args.indexOf(`--${name}`)
  if (i < 0) return fallback
  const value = Number(args[i + 1]?.replace(/_/g, ""))
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive integer`)
  return value
}
