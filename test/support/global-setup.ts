/**
 * Builds dist/ once per test run, before any test: CLI tests run `bin/mem.js` and crash and
 * concurrency tests run worker processes on dist/, and all must exercise the code as shipped,
 * never a stale build. (Building once, up front, also means no test rebuilds dist/ under
 * workers that another test is running.)
 */
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"

export default function setup(): () => void {
  execFileSync("npm", ["run", "--silent", "build"], { stdio: "inherit" })
  // The temporary state folder vitest.config.ts made for this run.
  return () => {
    const state = process.env.MEMLEDGER_STATE_DIR
    if (state !== undefined && state.includes("memledger-test-state-")) rmSync(state, { recursive: true, force: true })
  }
}
