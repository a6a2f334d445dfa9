/** Recall: `mem search`, `mem why`, `mem context`. */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { callOperation } from "../../../api/call-operation.js"
import type { ExplainOutput, RecallOutput } from "../../../api/outputs.js"
import { count, coverageDetail, coverageSummary, oneLine, vectorCueLines } from "../format.js"
import * as O from "../options.js"
import { captureSourcesOf, sourceLines, type CaptureSource } from "../capture-sources.js"
import { callerOf, withOperations } from "../root.js"
import { whileWaiting } from "../progress.js"

const query = Args.text({ name: "query" }).pipe(Args.withDescription("what you are looking for, in words"))
const limit = O.limit(`at most this many results, ${O.RANGES.recallLimit.join(" to ")} (default 10)`)

export const search = Command.make(
  "search",
  { query, also: O.also, limit, project: O.project, category: O.category, task: O.task, origin: O.origin, agent: O.agent, json: O.json },
  (a) =>
    withOperations(
      Effect.zipRight(
        Effect.all([O.checkRange("--limit", a.limit, ...O.RANGES.recallLimit), O.checkWho(a)], { discard: true }),
        Effect.suspend(() =>
          callOperation(
            "recall",
            {
              query: a.query,
              ...alsoOf(a.also),
              ...O.some("limit", a.limit),
              ...O.some("project", a.project),
              ...O.some("category", a.category),
              ...O.some("task", O.taskOrCurrent(a.task))
            },
            callerOf(a)
          )
        )
      ),
      { json: a.json, human: searchText, notice: (r) => r.notice }
    )
).pipe(Command.withDescription("Find the memories that answer QUERY, best first (current project and global)"))

/** What `why --at` says on a terminal while it waits: a command line's own process folds the log up to the moment every time. */
const PAST_WAIT = "replaying the log up to then (a first question about a moment reads every event before it)..."

export const why = Command.make(
  "why",
  {
    query,
    also: O.also,
    limit,
    project: O.project,
    category: O.category,
    at: Options.text("at").pipe(Options.withDescription("answer as of this time (ISO-8601)"), Options.optional),
    json: O.json
  },
  (a) =>
    withOperations(
      Effect.zipRight(
        Effect.all([O.checkRange("--limit", a.limit, ...O.RANGES.recallLimit), O.checkTime("--at", a.at)], { discard: true }),
        whileWaiting(
          Option.isSome(a.at) ? PAST_WAIT : undefined,
          callOperation(
            "explain",
            {
              query: a.query,
              ...alsoOf(a.also),
              ...O.some("limit", a.limit),
              ...O.some("project", a.project),
              ...O.some("category", a.category),
              ...O.some("at", a.at)
            },
            callerOf()
          )
        ).pipe(Effect.flatMap((r) => Effect.map(captureSourcesOf(r.results.map((x) => x.id)), (sources) => ({ r, sources }))))
      ),
      { json: a.json, human: ({ r, sources }) => whyText(r, sources), toJson: ({ r, sources }) => withCaptured(r, sources), notice: ({ r }) => r.notice }
    )
).pipe(Command.withDescription("Explain a search: every score term and the events behind it, and why each other match was left out"))

/** Each result with where capture found it, when it did. */
const withCaptured = (r: ExplainOutput, sources: ReadonlyMap<string, ReadonlyArray<CaptureSource>>) => ({
  ...r,
  results: r.results.map((x) => {
    const captured = sources.get(x.id) ?? []
    return captured.length === 0 ? x : { ...x, captured }
  })
})

export const context = Command.make(
  "context",
  {
    project: O.project,
    query: Options.text("query").pipe(
      Options.withAlias("q"),
      Options.withDescription("only the memories that answer this; without it, the session index"),
      Options.optional
    ),
    also: O.also,
    budget: Options.integer("budget").pipe(Options.withDescription("at most this many tokens, 50 to 100000 (default 1500)"), Options.optional),
    task: O.task,
    origin: O.origin,
    agent: O.agent,
    json: O.json
  },
  (a) =>
    withOperations(
      Effect.zipRight(
        Effect.all([O.checkRange("--budget", a.budget, ...O.RANGES.budget), O.checkWho(a)], { discard: true }),
        Effect.suspend(() =>
          callOperation(
            "getContext",
            {
              ...O.some("project", a.project),
              ...O.some("query", a.query),
              ...alsoOf(a.also),
              ...O.some("budget", a.budget),
              ...O.some("task", O.taskOrCurrent(a.task))
            },
            callerOf(a)
          )
        )
      ),
      { json: a.json, human: (c) => c.text || "no memory to offer" }
    )
).pipe(Command.withDescription("What an agent should see at session start, within a token budget"))

/** Repeated --also values as the operation's field; none given, no field. */
const alsoOf = (also: ReadonlyArray<string>) => (also.length > 0 ? { also } : {})

const searchText = (r: RecallOutput): string =>
  r.results.length === 0
    ? `no memory answers "${oneLine(r.query, 60)}"`
    : r.results
        .map((h) => {
          const notes = [h.probation ? "on probation" : "", h.instructionLike ? "flagged: reads like instructions to an agent" : ""].filter(Boolean)
          const line = `${h.rank}. ${h.shortId}  ${h.score.toFixed(3)}  [${h.category}] ${oneLine(h.content, 90)}${notes.length > 0 ? `  (${notes.join("; ")})` : ""}`
          return h.coverage === undefined ? line : `${line}
   ${coverageSummary(h.coverage, r.query)}`
        })
        .join("\n")

const whyText = (r: ExplainOutput, sources: ReadonlyMap<string, ReadonlyArray<CaptureSource>>): string => {
  const lines = [`why "${oneLine(r.query, 60)}" (${r.mode} search, ${r.project ?? "global only"}, as of ${r.at})`]
  for (const x of r.results) {
    const t = x.terms
    lines.push(
      `\n${x.rank}. ${x.shortId}  score ${x.score.toFixed(4)}${x.probation ? "  (on probation: gated, but nothing in the pool had a non-negative record)" : ""}`,
      `   ${oneLine(x.content, 100)}`,
      ...(x.coverage === undefined ? [] : coverageDetail(x.coverage)),
      `   relevance  ${t.relevance.contribution.toFixed(4)} = ${t.relevance.weight} x ${t.relevance.value.toFixed(3)} (keyword ${t.relevance.keyword.toFixed(3)}, vector ${t.relevance.vector.toFixed(3)})`,
      ...(t.relevance.viaCue === undefined ? [] : vectorCueLines(t.relevance.viaCue)),
      `   outcome    ${t.outcome.contribution.toFixed(4)} = ${t.outcome.weight} x ${t.outcome.value.toFixed(3)} (score ${t.outcome.score.toFixed(3)}: worked ${t.outcome.worked.toFixed(2)}, failed ${t.outcome.failed.toFixed(2)})`,
      ...x.events.outcome.map((e) => `      ${e.outcome.padEnd(7)} ${e.id.slice(0, 8)} ${e.recordedAt} ${e.origin}  weight ${e.weight.toFixed(3)}`),
      `   recency    ${t.recency.contribution.toFixed(4)} = ${t.recency.weight} x ${t.recency.value.toFixed(3)} (${t.recency.ageDays.toFixed(1)} days old)`,
      `   confidence ${t.confidence.contribution.toFixed(4)} = ${t.confidence.weight} x ${t.confidence.value.toFixed(3)}`,
      `   frequency  ${t.frequency.contribution.toFixed(4)} = ${t.frequency.weight} x ${t.frequency.value.toFixed(3)} (${count(t.frequency.confirmations, "confirmation")})`,
      ...sourceLines(sources.get(x.id) ?? [], "   ")
    )
  }
  if (r.results.length === 0) lines.push("\nno results")
  if (r.leftOut.length > 0) {
    lines.push("\nleft out:")
    for (const l of r.leftOut) {
      lines.push(`   ${(l.shortId ?? l.id.slice(0, 8)).padEnd(10)} ${l.stage.padEnd(22)} ${l.reason}  "${oneLine(l.content, 50)}"`)
      if (l.stage === "coverage" && l.coverage !== undefined) lines.push(...coverageDetail(l.coverage).map((line) => `          ${line}`))
    }
  }
  return lines.join("\n")
}
