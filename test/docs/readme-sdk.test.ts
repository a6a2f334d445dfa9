/**
 * The README's SDK examples are code: each block is written, exactly as the README shows it,
 * to an .mjs file and run by `node` as a real ES module. `import ... from "memledger"` resolves
 * as it would for a user who installed the package: through node_modules/memledger (here a
 * link to this repository) and the "exports" of its package.json, to the built dist/sdk.
 */
import { spawn } from "node:child_process"
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { expect, it, onTestFinished } from "vitest"
import { tempDir } from "../support/cli.js"
import { startRestServer } from "../support/rest-server.js"

const block = (name: string): string => {
  const readme = readFileSync("README.md", "utf8")
  const code = new RegExp(`<!-- ${name}:start -->\\s*\`\`\`js\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`).exec(readme)?.[1]
  if (code === undefined) throw new Error(`README.md has no ${name} block`)
  return code
}

/** Runs `code` as an ES module in a folder where "memledger" is this package, installed. */
const runModule = (code: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> => {
  const dir = tempDir()
  mkdirSync(join(dir, "node_modules"))
  symlinkSync(resolve("."), join(dir, "node_modules", "memledger"), "dir")
  writeFileSync(join(dir, "example.mjs"), code)
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, ["example.mjs"], { cwd: dir, env: { ...process.env, MEMLEDGER_DB: "", ...env } })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", failed)
    child.on("close", (code) => done({ code, stdout, stderr }))
  })
}

it("runs the README's local SDK example as an ES module importing memledger", async () => {
  const result = await runModule(block("sdk"))
  expect(result.stderr).toBe("")
  expect(result.code).toBe(0)
  expect(result.stdout.trim().split("\n")).toEqual([
    "true",
    "false [ 'Deploy with: make deploy ENV=prod' ]",
    "[ 'Deploy with: make deploy ENV=prod' ]",
    "1",
    "MemoryNotFound"
  ])
})

it("runs the README's remote SDK example against a server", async () => {
  const server = await startRestServer({ token: "s3cret" })
  onTestFinished(server.close)
  const result = await runModule(block("sdk-remote"), { MEMLEDGER_URL: server.url, MEMLEDGER_TOKEN: "s3cret" })
  expect(result.stderr).toBe("")
  expect(result.code).toBe(0)
  expect(result.stdout).toBe("[ 'Postgres 16 is required' ]\n")
  expect(server.requests.map((r) => r.authorization)).toEqual(["Bearer s3cret", "Bearer s3cret"])
})
