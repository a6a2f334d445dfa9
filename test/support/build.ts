/**
 * Worker processes run the compiled store from dist/, so tests that spawn them first make sure
 * dist/ is built from the current src/: `npm run build` runs when any src file is newer than
 * its output, at most once at a time across vitest workers (a lock folder), and not again
 * when another worker has just built it.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
export const DIST = join(REPO_ROOT, "dist")
const LOCK = join(REPO_ROOT, "node_modules", ".memledger-test-build.lock")
const STALE_LOCK_MS = 5 * 60_000

/** Builds dist/ if it is missing or older than src/; throws with the compiler output if the build fails. */
export const ensureBuilt = (): void => {
  if (isFresh()) return
  withLock(() => {
    if (isFresh()) return
    const build = spawnSync("npm", ["run", "build"], { cwd: REPO_ROOT, encoding: "utf8" })
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`)
  })
}

/** Every src/**\/*.ts has its dist/**\/*.js, at least as new. */
const isFresh = (): boolean =>
  sourceFiles(join(REPO_ROOT, "src")).every((file) => {
    const out = join(DIST, relative(join(REPO_ROOT, "src"), file)).replace(/\.ts$/, ".js")
    return existsSync(out) && statSync(out).mtimeMs >= statSync(file).mtimeMs
  })

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : []
  })

const withLock = (f: () => void): void => {
  for (;;) {
    try {
      mkdirSync(LOCK)
      break
    } catch {
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true })
      sleep(100)
    }
  }
  try {
    f()
  } finally {
    rmSync(LOCK, { recursive: true, force: true })
  }
}

const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
