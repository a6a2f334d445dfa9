import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests spawn real processes and open real SQLite files; two cores, so keep the pool small.
    maxWorkers: 2
  }
})
