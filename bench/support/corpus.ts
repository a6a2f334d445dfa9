/**
 * A deterministic generator of coding memories, shaped like what agents and people store:
 * conventions, gotchas, decisions, commands, ... of one to three sentences, about concrete
 * tools, files, errors and numbers, spread over many projects plus global ones, with tags,
 * origins and creation times. Same seed, same corpus: runs compare like with like.
 *
 * Every memory is distinct after restatement normalisation, so an import stores each one
 * rather than confirming an earlier copy.
 */
import { normaliseForRestatement } from "../../src/domain/text.js"
import type { Category } from "../../src/domain/vocabulary.js"
import type { DomainEvent } from "../../src/events/events.js"

export interface MemoryLine {
  readonly content: string
  readonly category: Category
  readonly project: string | null
  readonly tags: ReadonlyArray<string>
  readonly origin?: string
  readonly agent?: string
  readonly source?: "explicit" | "observed" | "extracted" | "imported"
  readonly createdAt?: string
}

/** The MemoryAdded event an import decides for `line` (no scan findings), with `memoryId`. */
export const addedEventOf = (line: MemoryLine, memoryId: string): DomainEvent => ({
  _tag: "MemoryAdded",
  memoryId: memoryId as never,
  content: line.content,
  category: line.category,
  scope: line.project === null ? "global" : "project",
  project: line.project,
  tags: [...line.tags],
  source: line.source ?? "imported",
  status: "confirmed",
  confidence: 0.8,
  ...(line.createdAt === undefined ? {} : { createdAt: line.createdAt })
})

/** mulberry32: tiny, fast, and good enough to spread a corpus. */
export const makeRandom = (seed: number) => {
  let a = seed >>> 0
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: ReadonlyArray<T>): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number): boolean => next() < p,
    hex: (n: number): string => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join("")
  }
}
export type Random = ReturnType<typeof makeRandom>

/** `count` distinct memory lines from `seed`. */
export const generateMemories = (count: number, seed = 20250101): MemoryLine[] => {
  const r = makeRandom(seed)
  const projects = makeProjects(r, 80)
  const sessions = Array.from({ length: 2_500 }, () => r.hex(12))
  const seen = new Set<string>()
  const out: MemoryLine[] = []
  const start = Date.UTC(2023, 0, 1)
  const span = Date.UTC(2025, 5, 1) - start
  while (out.length < count) {
    const category = r.pick(CATEGORY_WEIGHTS)
    const { text, tags } = sentenceFor(r, category)
    let content = text
    // The template space is large but finite: a rare collision gets a concrete reference.
    for (let attempt = 0; seen.has(normaliseForRestatement(content)); attempt++) {
      content = `${text} ${r.pick(REFERENCES)(r)}`
      if (attempt > 5) content = `${text} (note ${out.length})`
    }
    seen.add(normaliseForRestatement(content))
    const agent = r.pick(AGENTS)
    const fromSession = r.chance(0.7)
    out.push({
      content,
      category,
      project: r.chance(0.25) ? null : r.pick(projects),
      tags,
      ...(fromSession ? { origin: `${agent}:${agent === "codex" ? "thread" : "session"}/${r.pick(sessions)}`, agent } : {}),
      ...(r.chance(0.3) ? { source: r.pick(["explicit", "observed", "extracted"] as const) } : {}),
      ...(r.chance(0.5) ? { createdAt: new Date(start + Math.floor(r.next() * span)).toISOString() } : {})
    })
  }
  return out
}

export const toJsonl = (lines: ReadonlyArray<MemoryLine>): string => lines.map((l) => JSON.stringify(l)).join("\n") + "\n"

// ---------------------------------------------------------------------------------------------

const AGENTS = ["claude-code", "claude-code", "codex", "cursor", "opencode"] as const

const CATEGORY_WEIGHTS: ReadonlyArray<Category> = [
  ...Array<Category>(3).fill("convention"),
  ...Array<Category>(3).fill("gotcha"),
  ...Array<Category>(2).fill("command"),
  ...Array<Category>(2).fill("decision"),
  ...Array<Category>(2).fill("troubleshooting"),
  "architecture",
  "pattern",
  "workaround",
  "preference",
  "general"
]

const makeProjects = (r: Random, n: number): string[] => {
  const hosts = ["github.com", "github.com", "github.com", "gitlab.com", "bitbucket.org"]
  const orgs = ["acme", "globex", "initech", "umbrella", "hooli", "stark-industries", "wayne-ent", "cyberdyne", "tyrell", "soylent"]
  const repos = ["app", "web", "api", "platform", "billing", "mobile", "infra", "docs", "cli", "sdk", "worker", "dashboard", "auth", "search", "etl"]
  const set = new Set<string>()
  while (set.size < n) {
    set.add(r.chance(0.05) ? `/home/dev/scratch/${r.pick(repos)}-${r.int(1, 99)}` : `${r.pick(hosts)}/${r.pick(orgs)}/${r.pick(repos)}`)
  }
  return [...set]
}

const TOOLS = ["pnpm", "npm", "yarn", "bun", "cargo", "go", "poetry", "uv", "gradle", "mvn", "make", "just", "docker", "kubectl", "terraform", "helm"]
const LIBS = [
  "vitest", "jest", "eslint", "prettier", "prisma", "drizzle", "react", "next.js", "express", "fastify", "zod", "effect", "tRPC",
  "tailwind", "vite", "webpack", "esbuild", "playwright", "cypress", "storybook", "sqlalchemy", "pydantic", "django", "fastapi",
  "tokio", "serde", "axum", "sqlx", "gin", "grpc", "protobuf", "redis", "postgres", "sqlite", "kafka", "rabbitmq", "openapi",
  "graphql", "apollo", "sentry", "datadog", "opentelemetry", "celery", "pytest", "mypy", "ruff", "clippy", "golangci-lint"
]
const AREAS = [
  "auth service", "billing worker", "search indexer", "checkout flow", "admin dashboard", "GraphQL gateway", "ingest pipeline",
  "notification service", "feature-flag client", "rate limiter", "session store", "upload handler", "report generator",
  "migration runner", "webhook receiver", "cron scheduler", "email renderer", "audit log", "cache layer", "CLI entry point"
]
const DIRS = ["src", "packages/web/src", "packages/api/src", "apps/admin", "services/billing", "internal", "cmd/server", "lib", "crates/core/src", "app"]
const FILES = [
  "routes.ts", "db.ts", "config.ts", "index.ts", "handlers.go", "main.rs", "models.py", "settings.py", "schema.prisma",
  "vite.config.ts", "docker-compose.yml", "Makefile", "justfile", "tsconfig.json", "middleware.ts", "queue.ts", "client.ts",
  "server.ts", "migrations.sql", "Cargo.toml", "pyproject.toml", "go.mod", ".env.example", "ci.yml"
]
const ENV_VARS = ["DATABASE_URL", "REDIS_URL", "NODE_OPTIONS", "RUST_LOG", "LOG_LEVEL", "API_BASE_URL", "FEATURE_FLAGS", "TZ", "PORT", "SENTRY_DSN", "CI"]
const ERRORS = [
  "ECONNREFUSED 127.0.0.1:5432", "EADDRINUSE :::3000", "TS2589: Type instantiation is excessively deep",
  "ERR_REQUIRE_ESM", "SQLITE_BUSY: database is locked", "deadlock detected", "ENOSPC: no space left on device",
  "Cannot find module", "hydration mismatch", "borrowed value does not live long enough", "context deadline exceeded",
  "413 Payload Too Large", "CORS preflight failed", "OOMKilled", "segfault in the native addon", "flaky snapshot diff",
  "unique constraint violation", "certificate has expired", "too many open files", "heap out of memory"
]
const VERBS = ["always", "never", "prefer to", "make sure to", "remember to", "do not"]
const ACTIONS = [
  "run the migrations before the tests", "pin exact dependency versions", "use named exports", "keep handlers thin",
  "log with the request id", "wrap writes in a transaction", "validate input at the edge", "use UTC for every timestamp",
  "feature-flag risky changes", "add a regression test for each bug", "squash commits before merging", "keep secrets out of .env files",
  "use the shared HTTP client", "await every promise in a loop", "return errors as values", "close the db handle in tests",
  "regenerate the client after a schema change", "bump the cache key when the format changes", "debounce the search input",
  "stream large responses", "paginate with a cursor, not an offset", "check the lockfile into git", "use structured logging"
]
const REASONS = [
  "otherwise CI fails on a clean checkout", "the last outage came from exactly this", "reviewers reject it otherwise",
  "it keeps the bundle small", "the staging data is shared with QA", "it makes the logs searchable", "the ORM silently drops it otherwise",
  "the container has only 512 MB", "the mobile client depends on it", "it halves the cold-start time", "the on-call runbook assumes it",
  "local and CI must behave the same", "the replication lag is up to 30 s", "the vendor rate-limits at 100 requests per minute"
]
const ALTERNATIVES = [
  "a message queue", "a cron job", "server-sent events", "websockets", "polling every 30 s", "a monorepo", "separate repos",
  "REST", "GraphQL", "gRPC", "a read replica", "an in-process cache", "Redis", "SQLite", "Postgres", "a feature flag", "a background worker"
]
const TEAMMATES = ["Ana", "Bram", "Chen", "Dara", "Eli", "Farah", "Gus", "Hana", "Ivo", "Jun", "Kemal", "Lena", "Maya", "Noor"]

const path = (r: Random) => `${r.pick(DIRS)}/${r.pick(FILES)}`
const version = (r: Random) => `${r.int(1, 9)}.${r.int(0, 30)}.${r.int(0, 12)}`
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")

const REFERENCES: ReadonlyArray<(r: Random) => string> = [
  (r) => `See PR #${r.int(100, 9999)}.`,
  (r) => `Tracked in ${r.pick(["JIRA", "Linear", "GitHub"])} issue ${r.int(10, 4999)}.`,
  (r) => `${r.pick(TEAMMATES)} confirmed this on ${r.pick(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"])}.`
]

type Template = (r: Random) => { text: string; tags: string[] }

const TEMPLATES: Record<Category, ReadonlyArray<Template>> = {
  convention: [
    (r) => ({ text: `In the ${r.pick(AREAS)}, ${r.pick(VERBS)} ${r.pick(ACTIONS)}.`, tags: ["style"] }),
    (r) => {
      const lib = r.pick(LIBS)
      return { text: `Tests for ${path(r)} use ${lib} with ${r.pick(["fake timers", "a real database", "recorded fixtures", "snapshot files", "property tests"])}.`, tags: ["testing", slug(lib)] }
    },
    (r) => ({ text: `Name ${r.pick(["branches", "commits", "feature flags", "env vars", "migrations", "queues"])} as ${r.pick(["kebab-case", "snake_case", "TEAM-123/short-title", "conventional commits", "SCREAMING_CASE"])}; ${r.pick(REASONS)}.`, tags: ["naming"] })
  ],
  gotcha: [
    (r) => {
      const lib = r.pick(LIBS)
      return { text: `${lib} ${version(r)} ${r.pick(["ignores", "silently resets", "caches", "double-encodes", "drops"])} ${r.pick(ENV_VARS)} when ${r.pick(["run under Docker", "the cwd is a symlink", "tests run in parallel", "started from the IDE", "NODE_ENV is test"])}.`, tags: [slug(lib), "gotcha"] }
    },
    (r) => ({ text: `${r.pick(ERRORS)} in the ${r.pick(AREAS)} usually means ${r.pick(["the dev database is not running", "a stale build in dist/", "two workers share one port", "the wrong Node version", "an unpinned transitive dependency", "the VPN is down"])}. ${capitalise(r.pick(REASONS))}.`, tags: ["errors"] }),
    (r) => ({ text: `Editing ${path(r)} requires restarting ${r.pick(["the dev server", "the worker", "the watcher", "tsc --watch", "docker compose"])}; hot reload does not pick it up.`, tags: ["dev-loop"] })
  ],
  command: [
    (r) => {
      const tool = r.pick(TOOLS)
      return { text: `Run \`${tool} ${r.pick(["test", "run lint", "build", "run dev", "run typecheck", "run e2e", "exec migrate"])} ${r.pick(["--filter web", "-- --runInBand", "--frozen-lockfile", "-p core", "./...", "--watch", "--workspace api", ""])}\` from ${r.pick(DIRS)} ${r.pick(["before pushing", "to reproduce CI", "after pulling", "when the cache is stale"])}.`, tags: ["commands", slug(tool)] }
    },
    (r) => ({ text: `To reset local data: \`${r.pick(["docker compose down -v", "make db-reset", "rm -rf .data && pnpm seed", "just reset", "cargo run --bin seed"])}\` then \`${r.pick(["pnpm dev", "make up", "just dev", "go run ./cmd/server", "uv run app"])}\` on port ${r.int(3000, 9999)}.`, tags: ["commands", "local-dev"] })
  ],
  decision: [
    (r) => {
      const a = r.pick(ALTERNATIVES)
      let b = r.pick(ALTERNATIVES)
      while (b === a) b = r.pick(ALTERNATIVES)
      return { text: `We chose ${a} over ${b} for the ${r.pick(AREAS)}. ${capitalise(r.pick(REASONS))}.`, tags: ["adr", slug(a)] }
    },
    (r) => ({ text: `Decision (${r.pick(TEAMMATES)}, ${r.pick(["Q1", "Q2", "Q3", "Q4"])} ${r.int(2022, 2025)}): the ${r.pick(AREAS)} stays on ${r.pick(LIBS)} ${version(r)} until ${r.pick(["the rewrite lands", "the vendor fixes the leak", "we drop Node 18", "the audit is done"])}.`, tags: ["adr", "dependencies"] })
  ],
  troubleshooting: [
    (r) => ({ text: `When you see "${r.pick(ERRORS)}", check ${r.pick(ENV_VARS)} first, then ${path(r)}. ${r.pick(["Restarting does not help.", "It only happens on CI.", "It started after the last upgrade.", "Clearing the cache fixes it for a day."])}`, tags: ["debugging"] }),
    (r) => ({ text: `If the ${r.pick(AREAS)} hangs on start, ${r.pick(["kill the orphaned process on the port", "delete the lock file", "re-run the migrations", "raise the pool size", "check the DNS of the sidecar"])}; the logs show nothing useful until ${r.pick(["LOG_LEVEL=debug", "RUST_LOG=trace", "DEBUG=*", "--verbose"])}.`, tags: ["debugging", "startup"] })
  ],
  architecture: [
    (r) => ({ text: `The ${r.pick(AREAS)} talks to the ${r.pick(AREAS)} only through ${r.pick(ALTERNATIVES)}; no shared tables. Ownership sits with ${r.pick(TEAMMATES)}'s team.`, tags: ["architecture", "boundaries"] }),
    (r) => ({ text: `${path(r)} is the single place that ${r.pick(["opens database connections", "reads configuration", "maps errors to HTTP codes", "registers routes", "defines the event schema", "builds the DI container"])}.`, tags: ["architecture"] })
  ],
  pattern: [
    (r) => ({ text: `For ${r.pick(["retries", "pagination", "idempotency", "caching", "background jobs", "validation", "error handling"])} in the ${r.pick(AREAS)}, copy the approach in ${path(r)} rather than writing a new helper.`, tags: ["patterns"] }),
    (r) => ({ text: `Use the ${r.pick(["repository", "outbox", "saga", "builder", "adapter", "strategy", "unit of work"])} pattern for ${r.pick(AREAS)} changes; ${r.pick(REASONS)}.`, tags: ["patterns"] })
  ],
  workaround: [
    (r) => {
      const lib = r.pick(LIBS)
      return { text: `Until ${lib} ${version(r)} ships, set ${r.pick(ENV_VARS)}=${r.pick(["1", "false", "0", "legacy", "--max-old-space-size=4096"])} to avoid "${r.pick(ERRORS)}". Remove it after the upgrade.`, tags: ["workaround", slug(lib)] }
    }
  ],
  preference: [
    (r) => ({ text: `${r.pick(TEAMMATES)} prefers ${r.pick(["small PRs", "explicit return types", "early returns", "no default exports", "tabs", "descriptive test names", "table-driven tests", "comments that say why"])} in ${r.pick(DIRS)}.`, tags: ["preferences"] }),
    (r) => ({ text: `Answer in ${r.pick(["short bullet points", "full sentences", "a diff first, then an explanation", "British English"])} and ${r.pick(["show the command before running it", "never edit generated files", "ask before adding a dependency", "keep changes under 200 lines"])}.`, tags: ["preferences", "agent"] })
  ],
  general: [
    (r) => ({ text: `The ${r.pick(AREAS)} handles about ${r.int(2, 900)}k requests a day with a p99 of ${r.int(20, 900)} ms.`, tags: ["metrics"] }),
    (r) => ({ text: `${r.pick(TEAMMATES)} owns ${path(r)} and reviews changes to it within a day.`, tags: ["ownership"] })
  ]
}

/** One to three sentences: the template's own, then maybe a reason or a reference. */
const sentenceFor = (r: Random, category: Category): { text: string; tags: string[] } => {
  const { text, tags } = r.pick(TEMPLATES[category])(r)
  let out = text
  if (r.chance(0.35)) out += ` ${r.pick(REFERENCES)(r)}`
  if (r.chance(0.2)) out += ` ${r.pick(["This bit us twice.", "Verified on CI.", "Applies to every environment.", "Staging only.", "Ask before changing it."])}`
  const extra = r.chance(0.5) ? [r.pick(["backend", "frontend", "ci", "infra", "dx", "perf", "security", "data"])] : []
  return { text: out, tags: [...new Set([...tags, ...extra])].filter((t) => t.length > 0) }
}
