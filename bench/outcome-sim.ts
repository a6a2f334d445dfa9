/**
 * Outcome simulation: does outcome learning find the advice that works, and find it
 * again when the world changes?
 *
 * Each problem has one good and two bad memories that BM25 cannot tell apart (see
 * support/sim-problems.ts). A simulated agent searches the problem's query through the real
 * Retrieval service (which appends MemoriesRecalled), takes the top result, and reports
 * `worked` if it is the good one, else `failed`, through Commands.outcome; 10% of reports are
 * flipped. A round visits every problem once, in a shuffled order. Phase 1 runs `--rounds`
 * rounds; then the advice drifts (the good memory turns bad and one bad one turns good) and
 * phase 2 runs as many again. The clock never moves, so nothing decays: only the ranking's
 * own mechanisms (contradiction discount, probation) can recover.
 *
 * Every configuration runs on a fresh store per seed; the same seed gives the same problems
 * and the same flip draws in every configuration. Goals: precision@1 over the last rounds
 * of phase 1 >= 0.90; after the drift, back to >= 0.80 over a five-round window.
 *
 *   node bench/run.mjs outcome-sim [--problems 30] [--rounds 40] [--seeds 5] [--flip-percent 10] [--curve]
 */
import { join } from "node:path"
import { Effect } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../src/config.js"
import type { Outcome } from "../src/domain/vocabulary.js"
import { AppLayer } from "../src/services/app.js"
import { Commands } from "../src/services/commands.js"
import { Maintenance } from "../src/services/maintenance.js"
import { Retrieval, type RetrievalApi } from "../src/services/retrieval.js"
import { makeRandom, toJsonl } from "./support/corpus.js"
import { environment, intArg, median, withScratchDir } from "./support/measure.js"
import { BENCH_NOW, fixedClock } from "./support/sim-clock.js"
import { makeProblems, SIM_PROJECT, type Problem } from "./support/sim-problems.js"

const problemCount = intArg("problems", 30)
const rounds = intArg("rounds", 40)
const seeds = intArg("seeds", 5)
const showCurve = process.argv.includes("--curve")
const FLIP = intArg("flip-percent", 10) / 100
const WINDOW = 5
const GOAL_SETTLED = 0.9
const GOAL_RECOVERED = 0.8
const ACTOR = { origin: "bench:outcome-sim", agent: "sim" }

interface Variant {
  readonly name: string
  readonly config: LedgerConfig
}

const variant = (name: string, contradictionDiscount: number, probation: boolean): Variant => ({
  name,
  config: { ...DEFAULT_CONFIG, contradictionDiscount, probation }
})

const VARIANTS: ReadonlyArray<Variant> = [
  variant("(a) plain score: discount 1, no probation", 1, false),
  variant("(b) probation only", 1, true),
  variant("(c) discount 0.5 only", 0.5, false),
  variant("(d) discount 0.5 + probation", 0.5, true),
  variant("(e) discount 0.7 + probation", 0.7, true),
  variant("(f) discount 0.3 + probation", 0.3, true)
]

interface SimRun {
  /** Precision@1 of each round, phase 1 then phase 2. */
  readonly perRound: ReadonlyArray<number>
  /** Phase-2 searches that returned nothing at all (every memory of the problem gated). */
  readonly emptyPhase2: number
}

/** One configuration, one seed, one fresh store. */
const simulate = (problems: ReadonlyArray<Problem>, seed: number, config: LedgerConfig, dbPath: string): Promise<SimRun> =>
  Effect.gen(function* () {
    const maintenance = yield* Maintenance
    const retrieval = yield* Retrieval
    const commands = yield* Commands
    const imported = yield* maintenance.importJsonl(toJsonl(problems.flatMap((p) => p.lines)), ACTOR)
    const ids = problems.map((_, i) => imported.ids.slice(3 * i, 3 * i + 3))
    yield* checkSymmetry(retrieval, problems, ids)

    const noise = makeRandom(seed * 7919 + 1)
    const order = makeRandom(seed * 104729 + 3)
    const perRound: number[] = []
    let emptyPhase2 = 0
    for (let round = 0; round < 2 * rounds; round++) {
      const drifted = round >= rounds
      let hits = 0
      for (const i of shuffled(problems.length, order)) {
        const problem = problems[i]!
        const goodId = ids[i]![drifted ? problem.goodAfterDrift : problem.good]
        const found = yield* retrieval.search({ query: problem.query, project: SIM_PROJECT }, ACTOR)
        const top = found.results[0]
        if (top === undefined) {
          if (drifted) emptyPhase2++
          continue
        }
        const worked = top.memory.id === goodId
        if (worked) hits++
        const flipped = noise.chance(FLIP)
        const outcome: Outcome = worked !== flipped ? "worked" : "failed"
        yield* commands.outcome([top.memory.id], outcome, {}, ACTOR)
      }
      perRound.push(hits / problems.length)
    }
    return { perRound, emptyPhase2 }
  }).pipe(Effect.withClock(fixedClock(BENCH_NOW)), Effect.provide(AppLayer(dbPath, config)), Effect.scoped, Effect.runPromise)

/** Before any outcome, the three memories of every problem tie on relevance and on score. */
const checkSymmetry = (retrieval: RetrievalApi, problems: ReadonlyArray<Problem>, ids: ReadonlyArray<ReadonlyArray<string>>) =>
  Effect.forEach(problems, (problem, i) =>
    Effect.map(retrieval.why({ query: problem.query, project: SIM_PROJECT }), (why) => {
      const mine = why.results.filter((r) => ids[i]!.includes(r.memory.id))
      const others = why.results.length - mine.length
      const tie = mine.every((r) => Math.abs(r.score - mine[0]!.score) < 1e-12 && Math.abs(r.terms.relevance.keyword - 1) < 1e-12)
      if (mine.length !== 3 || others !== 0 || !tie) {
        throw new Error(`problem '${problem.query}' is not symmetric: ${mine.length} of its memories found, ${others} others, tie ${tie}`)
      }
    })
  )

const shuffled = (n: number, r: ReturnType<typeof makeRandom>): number[] => {
  const a = Array.from({ length: n }, (_, i) => i)
  for (let i = n - 1; i > 0; i--) {
    const j = r.int(0, i)
    ;[a[i], a[j]] = [a[j]!, a[i]!]
  }
  return a
}

// --- summary -------------------------------------------------------------------------------

const mean = (xs: ReadonlyArray<number>) => xs.reduce((s, x) => s + x, 0) / xs.length
const windowMean = (perRound: ReadonlyArray<number>, from: number) => mean(perRound.slice(from, from + WINDOW))

/** The phase-2 round (1-based) that ends the first five-round window at or above the goal. */
const recoveryRound = (perRound: ReadonlyArray<number>): number | undefined => {
  for (let end = WINDOW; end <= rounds; end++) {
    if (windowMean(perRound, rounds + end - WINDOW) >= GOAL_RECOVERED) return end
  }
  return undefined
}

interface Summary {
  readonly name: string
  readonly first: number
  readonly settled: number
  readonly afterDrift: number
  readonly final: number
  readonly recovered: ReadonlyArray<number | undefined>
  readonly emptyPhase2: number
  readonly curve: ReadonlyArray<number>
}

const summarise = (name: string, runs: ReadonlyArray<SimRun>): Summary => ({
  name,
  first: mean(runs.map((r) => windowMean(r.perRound, 0))),
  settled: mean(runs.map((r) => windowMean(r.perRound, rounds - WINDOW))),
  afterDrift: mean(runs.map((r) => windowMean(r.perRound, rounds))),
  final: mean(runs.map((r) => windowMean(r.perRound, 2 * rounds - WINDOW))),
  recovered: runs.map((r) => recoveryRound(r.perRound)),
  emptyPhase2: mean(runs.map((r) => r.emptyPhase2)) / (rounds * problemCount),
  curve: Array.from({ length: 2 * rounds }, (_, k) => mean(runs.map((r) => r.perRound[k]!)))
})

const recoveryText = (rs: ReadonlyArray<number | undefined>): string => {
  const reached = rs.filter((r): r is number => r !== undefined)
  if (reached.length === 0) return "never"
  const spread = `${Math.min(...reached)}-${Math.max(...reached)}`
  return reached.length === rs.length ? `${median(reached)} (${spread})` : `${median(reached)} (${spread}); never in ${rs.length - reached.length}/${rs.length}`
}

const verdict = (s: Summary): string => {
  const settled = s.settled >= GOAL_SETTLED
  const back = s.recovered.every((r) => r !== undefined) && s.final >= GOAL_RECOVERED
  return settled && back ? "both" : settled ? "settles, no recovery" : back ? "recovers, unsettled" : "neither"
}

const f2 = (x: number) => x.toFixed(2)

await withScratchDir("outcome-sim", async (dir) => {
  console.log(
    `outcome-sim: ${problemCount} problems x (${rounds} + ${rounds}) rounds, ${Math.round(FLIP * 100)}% of reports flipped, ` +
      `${seeds} seeds (mean over seeds), clock fixed; ${environment()}`
  )
  const summaries: Summary[] = []
  for (const v of VARIANTS) {
    // Each configuration gets fresh stores; seed k gives the same problems and flips in all of them.
    const runs: SimRun[] = []
    for (let seed = 1; seed <= seeds; seed++) {
      const problems = makeProblems(problemCount, makeRandom(seed))
      runs.push(await simulate(problems, seed, v.config, join(dir, `${summaries.length}-${seed}.db`)))
    }
    summaries.push(summarise(v.name, runs))
    console.log(`  ran ${v.name}`)
  }

  const header = ["configuration", "p@1 r1-5", "p@1 last 5", "p@1 drift+1-5", "p@1 final 5", "recovers at round (median, range)", "empty ph2", "goals"]
  const rows = summaries.map((s) => [
    s.name,
    f2(s.first),
    f2(s.settled),
    f2(s.afterDrift),
    f2(s.final),
    recoveryText(s.recovered),
    `${(s.emptyPhase2 * 100).toFixed(0)}%`,
    verdict(s)
  ])
  console.log(`\n| ${header.join(" | ")} |\n|${header.map(() => " --- ").join("|")}|`)
  for (const row of rows) console.log(`| ${row.join(" | ")} |`)
  console.log(
    `\np@1: share of searches whose top result was the advice that currently works, over five rounds (${WINDOW * problemCount} searches per seed).` +
      `\n"recovers at": the phase-2 round ending the first five-round window with p@1 >= ${GOAL_RECOVERED}.` +
      `\n"empty ph2": phase-2 searches that returned nothing (all three memories behind the failure gate).`
  )
  if (showCurve) {
    console.log(`\np@1 per five-round window (mean over seeds), phase 1 | phase 2:`)
    for (const s of summaries) {
      const windows = (from: number) =>
        Array.from({ length: Math.ceil(rounds / WINDOW) }, (_, k) => f2(mean(s.curve.slice(from + k * WINDOW, Math.min(from + rounds, from + (k + 1) * WINDOW)))))
      console.log(`  ${s.name.padEnd(38)} ${windows(0).join(" ")} | ${windows(rounds).join(" ")}`)
    }
  }
})
