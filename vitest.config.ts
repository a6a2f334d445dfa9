import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { defineConfig } from "vitest/config"

// Hook session state and hooks.log go to a state folder (src/hooks/state-folder.ts), by default
// under the real home: tests and the processes they spawn use a temporary one instead, which
// global-setup.ts removes at the end.
process.env.MEMLEDGER_STATE_DIR ||= mkdtempSync(join(tmpdir(), "memledger-test-state-"))

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The build, then PostgreSQL: a cluster this run starts is stopped at the end (postgres-setup.ts).
    globalSetup: ["test/support/global-setup.ts", "test/support/postgres-setup.ts"],
    env: { MEMLEDGER_STATE_DIR: process.env.MEMLEDGER_STATE_DIR },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests spawn real processes and open real SQLite files; two cores, so keep the pool small.
    maxWorkers: 2
  }
})
