/**
 * Builds dist/ once per test run: CLI tests run `bin/mem.js` and concurrency tests run worker
 * processes, and both must exercise the code as shipped, not a stale build.
 */
import { execFileSync } from "node:child_process"

export default function setup(): void {
  execFileSync("npm", ["run", "--silent", "build"], { stdio: "inherit" })
}
