/**
 * The problems of the outcome simulation (bench/outcome-sim.ts). Each problem is a query and
 * three memories that answer it with different advice; exactly one advice works.
 *
 * The three are symmetric for BM25 by construction: the same sentence around the query's words
 * (each once), advice of exactly five plain words that no query contains, the same tags and
 * category. Same term frequencies and same length give the same BM25, so only outcomes can
 * separate them; the sim checks the tie before it starts. The query words of one problem appear
 * in no other problem, so a problem's memories never compete in another's recall.
 */
import type { MemoryLine } from "./corpus.js"
import type { Random } from "./corpus.js"

export interface Problem {
  readonly query: string
  /** The three memories, in the order they are imported (shuffled, so a tie favours none). */
  readonly lines: readonly [MemoryLine, MemoryLine, MemoryLine]
  /** Index into `lines` of the advice that works before the drift. */
  readonly good: number
  /** Index into `lines` of the advice that works after it (one of the two bad ones). */
  readonly goodAfterDrift: number
}

export const SIM_PROJECT = "github.com/acme/app"

/** At most 30 problems: one per tool, each with its own symptom word. */
export const makeProblems = (count: number, r: Random): Problem[] => {
  if (count > TOOLS.length) throw new Error(`at most ${TOOLS.length} problems`)
  return TOOLS.slice(0, count).map((tool, i) => {
    const symptom = SYMPTOMS[i]!
    const advice = pickDistinct(r, ADVICE, 3)
    const good = r.int(0, 2)
    const bad = [0, 1, 2].filter((k) => k !== good)
    const line = (a: string): MemoryLine => ({
      content: `When ${tool} ${symptom}, ${a}.`,
      category: "troubleshooting",
      project: SIM_PROJECT,
      tags: [tool]
    })
    return {
      query: `${tool} ${symptom}`,
      lines: [line(advice[0]!), line(advice[1]!), line(advice[2]!)],
      good,
      goodAfterDrift: r.pick(bad)
    }
  })
}

const pickDistinct = (r: Random, from: ReadonlyArray<string>, n: number): string[] => {
  const pool = [...from]
  const out: string[] = []
  while (out.length < n) out.push(pool.splice(r.int(0, pool.length - 1), 1)[0]!)
  return out
}

const TOOLS = [
  "vitest", "jest", "prisma", "webpack", "esbuild", "playwright", "cypress", "pytest", "mypy", "ruff",
  "cargo", "docker", "kubectl", "terraform", "helm", "gradle", "redis", "postgres", "kafka", "celery",
  "sqlx", "axum", "tokio", "fastapi", "django", "storybook", "eslint", "prettier", "tailwind", "vite"
]

/** Distinct after Porter stemming, and in no advice. */
const SYMPTOMS = [
  "hangs", "segfaults", "deadlocks", "flakes", "crashes", "stalls", "leaks", "overflows", "throttles", "panics",
  "freezes", "retries", "disconnects", "truncates", "duplicates", "reorders", "miscompiles", "corrupts", "rejects", "drops",
  "spins", "thrashes", "diverges", "stutters", "misroutes", "desyncs", "blocks", "loops", "evicts", "starves"
]

/** Exactly five tokens each (FTS5 unicode61), so every memory of a problem has the same length. */
const ADVICE = [
  "clear the build cache first",
  "pin the base image version",
  "upgrade the native addon bindings",
  "delete the lockfile and reinstall",
  "restart the local database container",
  "set the timezone to UTC",
  "rebuild the generated client code",
  "increase the open file limit",
  "downgrade to the previous release",
  "run the migrations once more",
  "switch the runner to Linux",
  "remove the stale symlink manually",
  "turn off source map generation",
  "bump the connection pool size",
  "raise the heap size limit",
  "purge the remote build cache"
]
