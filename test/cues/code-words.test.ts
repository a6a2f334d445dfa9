/**
 * Code-aware words: identifiers are searchable whole and by part. Each row is a memory and a
 * query that must find it first in a real store, among memories that share none of the
 * identifier's parts (on every store); and the words `codeWords` makes of a few identifiers.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { codeWords } from "../../src/retrieval/code-words.js"
import { Commands, describeEachStore, Retrieval, runAt, T0 } from "../support/services.js"

const TABLE: ReadonlyArray<readonly [memory: string, query: string]> = [
  ["Read the user from getServerSession in route handlers", "server session"],
  ["Read the user from getServerSession in route handlers", "getServerSession"],
  ["Install with pnpm install --frozen-lockfile in CI", "frozenLockfile"],
  ["Install with pnpm install --frozen-lockfile in CI", "frozen lockfile"],
  ["Set DATABASE_URL before running migrations", "database url"],
  ["Set DATABASE_URL before running migrations", "databaseUrl"],
  ["Set DATABASE_URL before running migrations", "DATABASE_URL"],
  ["The retry budget lives in max_retry_count", "maxRetryCount"],
  ["Auth helpers are in lib/auth.ts", "auth.ts"],
  ["Auth helpers are in lib/auth.ts", "lib auth"],
  ["Use the user-agent header from parseUserAgent", "parse user agent"],
  ["Turn on tracing with OTEL_EXPORTER_OTLP_ENDPOINT", "otel exporter endpoint"],
  ["Call db.transaction.commit() only once", "transaction commit"],
  ["Run cargo clippy --all-targets before pushing", "all targets"],
  ["The HTTPServer wrapper restarts on SIGHUP", "http server"]
]

const OTHERS = ["Prefer small pull requests", "Deploy on Tuesdays", "Write tests before fixing a bug"]

describeEachStore((store) => {
  describe("an identifier is found by its parts and as a whole", () => {
    it.each(TABLE)("%s <- %s", async (memory, query) => {
      const db = await store.fresh()
      const found = await runAt(
        db,
        T0,
        Effect.gen(function* () {
          const commands = yield* Commands
          for (const text of OTHERS) yield* commands.add({ content: text, scope: "global", project: null }, { origin: "cli", agent: "cli" })
          const added = yield* commands.add({ content: memory, scope: "global", project: null }, { origin: "cli", agent: "cli" })
          const result = yield* Effect.flatMap(Retrieval, (r) => r.search({ query, project: null }, { origin: "cli", agent: "cli" }))
          return { id: added.id, first: result.results[0]?.memory.id }
        })
      )
      expect(found.first).toBe(found.id)
    })
  })
})

describe("codeWords", () => {
  it.each([
    ["getServerSession", ["get", "server", "session"]],
    ["--frozen-lockfile", ["frozenlockfile"]],
    ["DATABASE_URL", ["databaseurl"]],
    ["getHTTPServer", ["get", "http", "server"]],
    ["src/retrieval/rankRun.ts", ["rank", "run"]],
    ["plain words only", []]
  ])("%s -> %j", (text, words) => {
    expect(codeWords(text)).toEqual(words)
  })
})
