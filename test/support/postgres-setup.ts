/**
 * PostgreSQL for the whole test run, settled once in vitest's main process before any test:
 * - MEMLEDGER_TEST_PG=off: none; the PostgreSQL tests skip, saying so.
 * - MEMLEDGER_TEST_PG_URL set (CI starts its own cluster): that server.
 * - otherwise: a throwaway cluster from scripts/pg-cluster.sh, stopped and removed at the end,
 *   so `npm test` works on any machine with PostgreSQL installed.
 * A cluster that cannot start does not stop the run: the other tests still run, and every
 * PostgreSQL test fails with the reason (a missing server must not pass as a skip).
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { PROVIDED_KEY, type PostgresProvided } from "./postgres-provided.js"

const SCRIPT = join(import.meta.dirname, "../../scripts/pg-cluster.sh")

export default function setup(project: TestProject): () => void {
  const mode = process.env.MEMLEDGER_TEST_PG ?? ""
  if (mode !== "" && mode !== "on" && mode !== "off") {
    throw new Error(`MEMLEDGER_TEST_PG is "${mode}": leave it unset (or "on"), or set it to "off" to skip the PostgreSQL tests`)
  }
  const given = process.env.MEMLEDGER_TEST_PG_URL
  if (mode === "off") return provide(project, { kind: "off" })
  if (given !== undefined && given !== "") return provide(project, { kind: "server", url: given })

  const dir = mkdtempSync(join(tmpdir(), "memledger-test-pg-"))
  const env = { ...process.env, MEMLEDGER_PG_DIR: dir }
  let url: string
  try {
    const out = execFileSync("bash", [SCRIPT, "start"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    const line = /^MEMLEDGER_TEST_PG_URL=(.+)$/m.exec(out)
    if (line?.[1] === undefined) throw new Error(`scripts/pg-cluster.sh start printed no MEMLEDGER_TEST_PG_URL line: ${out}`)
    url = line[1]
  } catch (cause) {
    const stderr = (cause as { stderr?: string }).stderr?.trim()
    const error =
      `no PostgreSQL for the tests: scripts/pg-cluster.sh start failed (${stderr || (cause as Error).message}). ` +
      "Install PostgreSQL (Debian: apt-get install postgresql, then scripts/install-pgvector.sh as root), " +
      "or set MEMLEDGER_TEST_PG_URL to a server, or MEMLEDGER_TEST_PG=off to skip these tests"
    console.error(error)
    rmSync(dir, { recursive: true, force: true })
    return provide(project, { kind: "missing", error })
  }
  // Processes the tests spawn see the same server.
  process.env.MEMLEDGER_TEST_PG_URL = url
  provide(project, { kind: "server", url })
  return () => {
    execFileSync("bash", [SCRIPT, "stop"], { env, stdio: "inherit" })
  }
}

const provide = (project: TestProject, value: PostgresProvided): (() => void) => {
  project.provide(PROVIDED_KEY, value)
  return () => {}
}
