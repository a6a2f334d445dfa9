/**
 * bin/mem.js compiles each bundle from V8's code cache beside it, written when a run finds none
 * or finds one V8 refuses. A cache that is damaged, or belongs to other code, must cost only
 * its rewriting: the hook still prints what it prints without one. Run on a copy of the built
 * files, so that the caches other tests' processes use are left alone.
 */
import { copyFileSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { spawnSync } from "node:child_process"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, tempDir } from "../support/cli.js"

/** bin/ and the hook bundles, copied to a folder of their own; node_modules linked. */
const installCopy = (): string => {
  const root = tempDir("memledger-cache-")
  for (const dir of ["bin", "dist"]) mkdirSync(join(root, dir))
  for (const file of ["bin/mem.js", "bin/package.json", "dist/hook.cjs", "dist/hook-store.cjs", "dist/cl100k.tokens"]) {
    copyFileSync(resolve(file), join(root, file))
  }
  symlinkSync(resolve("node_modules"), join(root, "node_modules"))
  return root
}

const setup = () => {
  const root = installCopy()
  const dir = tempDir()
  const db = join(dir, "m.db")
  expect(mem(["--db", db, "add", "Always ask before running git push", "--global", "-c", "preference"]).code).toBe(0)
  const cache = join(root, "dist", "hook-store.cjs.v8cache")
  const input = JSON.stringify({ session_id: "cached", cwd: dir, source: "startup" })
  /** One session-start through the copy: its output, and what became of each bundle's cache. */
  const sessionStart = () => {
    const record = join(dir, `record-${Math.random()}.txt`)
    const run = spawnSync(process.execPath, [join(root, "bin", "mem.js"), "--db", db, "hook", "session-start"], {
      input,
      encoding: "utf8",
      env: { ...process.env, MEMLEDGER_DB: "", NODE_OPTIONS: `--require ${resolve("test/support/record-code-cache.cjs")}`, RECORD_CODE_CACHE: record }
    })
    expect(run.status, run.stderr).toBe(0)
    return { stdout: run.stdout, caches: readFileSync(record, "utf8").trim().split("\n") }
  }
  return { root, cache, sessionStart }
}

describe("the bundles' code cache", () => {
  it("is written by the first run and used by the next, which prints the same", () => {
    const { cache, sessionStart } = setup()
    const first = sessionStart()
    expect(first.caches).toEqual(["hook.cjs none", "hook-store.cjs none"])
    expect(first.stdout).toContain("Always ask before running git push")
    const written = statSync(cache)

    const second = sessionStart()
    expect(second.caches).toEqual(["hook.cjs used", "hook-store.cjs used"])
    expect(second.stdout).toBe(first.stdout)
    // A cache V8 took is not written again.
    expect(statSync(cache).mtimeMs).toBe(written.mtimeMs)
  })

  it("a damaged or truncated cache is not given to V8: the hook prints the same, and the cache is written anew", () => {
    const { cache, sessionStart } = setup()
    const clean = sessionStart()
    // Damaged past V8's header, which V8 would take: its release builds check no checksum, and
    // deserializing such bytes aborts the process.
    const damaged = readFileSync(cache)
    damaged.fill(0x5a, 256, 8192)
    for (const wrong of [damaged, damaged.subarray(0, 100)]) {
      writeFileSync(cache, wrong)
      const run = sessionStart()
      expect(run.caches).toEqual(["hook.cjs used", "hook-store.cjs none"])
      expect(run.stdout).toBe(clean.stdout)
      expect(sessionStart().caches).toEqual(["hook.cjs used", "hook-store.cjs used"])
    }
  })

  it("another bundle's cache is refused by V8, and the hook prints the same", () => {
    const { root, cache, sessionStart } = setup()
    const clean = sessionStart()
    writeFileSync(cache, readFileSync(join(root, "dist", "hook.cjs.v8cache")))
    const run = sessionStart()
    expect(run.caches).toEqual(["hook.cjs used", "hook-store.cjs rejected"])
    expect(run.stdout).toBe(clean.stdout)
    expect(sessionStart().caches).toEqual(["hook.cjs used", "hook-store.cjs used"])
  })
})
