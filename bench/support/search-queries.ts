/**
 * Queries for the search bench (bench/search.ts), deterministic from a seed and shaped like
 * what agents send: a few words lifted from a stored memory (the common case: the agent met
 * the same error or file again), short questions a person would type, and a share of queries
 * that match little or nothing. Each query carries the project it is asked from (a project of
 * the corpus, or null for global only).
 */
import { STOP_WORDS } from "../../src/retrieval/fts-query.js"
import { makeRandom, type MemoryLine, type Random } from "./corpus.js"

export interface BenchQuery {
  readonly query: string
  readonly project: string | null
}

export const makeQueries = (count: number, corpus: ReadonlyArray<MemoryLine>, r: Random): BenchQuery[] => {
  const projects = [...new Set(corpus.map((m) => m.project).filter((p): p is string => p !== null))].sort()
  const out: BenchQuery[] = []
  while (out.length < count) {
    const kind = r.next()
    const project = r.chance(0.8) ? r.pick(projects) : null
    if (kind < 0.6) {
      const m = r.pick(corpus)
      out.push({ query: wordsFrom(m.content, r), project: m.project ?? project })
    } else if (kind < 0.9) {
      out.push({ query: r.pick(TYPED), project })
    } else {
      out.push({ query: r.pick(RARE), project })
    }
  }
  return out
}

/** Two to five consecutive words of a memory, as an agent would paste part of an error or a path. */
const wordsFrom = (content: string, r: Random): string => {
  const words = content.match(/[A-Za-z0-9_.:-]+/g) ?? [content]
  const n = Math.min(words.length, r.int(2, 5))
  const start = r.int(0, words.length - n)
  return words.slice(start, start + n).join(" ")
}

const TYPED = [
  "how do I run the tests", "run migrations before tests", "database is locked", "SQLITE_BUSY", "ECONNREFUSED postgres",
  "port 3000 already in use", "hydration mismatch react", "ERR_REQUIRE_ESM", "heap out of memory in CI", "flaky snapshot",
  "branch naming convention", "commit message format", "which HTTP client should I use", "pagination cursor or offset",
  "how to reset local data", "docker compose down", "pnpm filter web", "vitest fake timers", "prisma schema change",
  "regenerate the client", "feature flag risky change", "logging request id", "structured logging", "timestamps UTC",
  "rate limit vendor", "replication lag", "auth service hangs on start", "billing worker deadlock", "webhook receiver 413",
  "cors preflight failed", "certificate has expired", "too many open files", "OOMKilled container 512 MB",
  "why did we choose GraphQL", "message queue or cron job", "who owns the config", "tsconfig.json strict",
  "eslint rule", "ruff mypy", "cargo clippy warnings", "golangci-lint", "kubectl rollout", "terraform plan",
  "helm chart values", "RUST_LOG trace", "LOG_LEVEL debug", "NODE_OPTIONS max-old-space-size", "DATABASE_URL test",
  "keep handlers thin", "return errors as values", "close the db handle in tests", "bump the cache key",
  "small PRs preference", "answer in bullet points", "ask before adding a dependency", "outbox pattern",
  "retries idempotency", "background jobs worker", "search indexer", "upload handler stream large responses"
]

const RARE = [
  "kubernetes operator reconcile loop", "wasm component model", "quantum", "zig build", "elixir phoenix liveview",
  "fortran", "apple notarization", "gpu shader compile", "ldap bind", "bluetooth pairing", "xkcd", "haskell cabal"
]

/** Queries of two of the words in the most memories: each matches a large share of the store. */
export const commonWordQueries = (corpus: ReadonlyArray<MemoryLine>, count: number): BenchQuery[] => {
  const df = new Map<string, number>()
  for (const m of corpus) for (const w of new Set(m.content.toLowerCase().match(/[a-z]{4,}/g) ?? [])) if (!STOP_WORDS.has(w)) df.set(w, (df.get(w) ?? 0) + 1)
  const words = [...df].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([w]) => w)
  const r = makeRandom(7)
  return Array.from({ length: count }, () => ({ query: `${r.pick(words)} ${r.pick(words)}`, project: r.chance(0.5) ? null : r.pick(corpus).project }))
}
