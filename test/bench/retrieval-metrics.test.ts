/**
 * Protects the retrieval benchmark's scoring: reciprocal rank and hit@k on
 * hand-computed examples, the per-kind and overall aggregation (negatives kept out of MRR and
 * scored by empty results), the markdown table; the BM25 baseline's scoping, supersession and
 * query quoting; the split into tuning and held-out halves; and the data set's own guarantees (it
 * validates, first-batch paraphrases share no content word with their answers and second-batch
 * ones at most one with each, code queries spell their answer's name another way).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { bm25Rank, createBm25Index, matchExpression } from "../../bench/retrieval/bm25-baseline.js"
import { formatTable, hitAt, QUERY_KINDS, queryHalf, reciprocalRank, scoreQuery, summarize, type QueryOutcome } from "../../bench/retrieval/metrics.js"
import {
  CATEGORIES as BENCH_CATEGORIES,
  contentWords,
  MINIMUM,
  PARAPHRASE_SHARED_MAX,
  validateDataset,
  type BenchMemory
} from "../../bench/retrieval/validate.js"
import { CATEGORIES } from "../../src/domain/vocabulary.js"

describe("reciprocalRank", () => {
  test("is one over the rank of the first relevant key", () => {
    expect(reciprocalRank(["a", "b", "c"], ["a"])).toBe(1)
    expect(reciprocalRank(["a", "b", "c"], ["c"])).toBeCloseTo(1 / 3, 12)
    expect(reciprocalRank(["a", "b", "c", "d"], ["d", "b"])).toBe(1 / 2)
  })

  test("is 0 when no relevant key is returned, or nothing is", () => {
    expect(reciprocalRank(["a", "b"], ["z"])).toBe(0)
    expect(reciprocalRank([], ["z"])).toBe(0)
  })

  test("counts a key returned twice at its first position", () => {
    expect(reciprocalRank(["x", "x", "a", "a"], ["a"])).toBeCloseTo(1 / 3, 12)
  })
})

describe("hitAt", () => {
  const returned = ["p", "q", "r", "s", "t", "u"]
  test("is true exactly when the first relevant rank is at most k", () => {
    expect([1, 3, 5].map((k) => hitAt(returned, ["r"], k))).toEqual([false, true, true])
    expect([1, 3, 5].map((k) => hitAt(returned, ["s"], k))).toEqual([false, false, true])
    expect([1, 3, 5].map((k) => hitAt(returned, ["u"], k))).toEqual([false, false, false])
    expect([1, 3, 5].map((k) => hitAt(returned, ["p"], k))).toEqual([true, true, true])
  })
})

describe("scoreQuery", () => {
  test("leaves the answerable figures out for a negative and records an empty result", () => {
    expect(scoreQuery({ id: "q1", kind: "negative", returned: [], relevant: [] })).toEqual({
      id: "q1",
      kind: "negative",
      answerable: false,
      reciprocalRank: null,
      hit1: null,
      hit3: null,
      hit5: null,
      empty: true
    })
  })
})

// Hand-computed: lexical ranks 1 and 3; paraphrase rank 6 and a miss; two negatives, one answered with nothing.
const outcomes: QueryOutcome[] = [
  { id: "q1", kind: "lexical", returned: ["a", "b"], relevant: ["a"] },
  { id: "q2", kind: "lexical", returned: ["x", "y", "b"], relevant: ["b"] },
  { id: "q3", kind: "paraphrase", returned: ["x", "y", "z", "w", "v", "b"], relevant: ["b"] },
  { id: "q4", kind: "paraphrase", returned: [], relevant: ["c"] },
  { id: "q5", kind: "negative", returned: [], relevant: [] },
  { id: "q6", kind: "negative", returned: ["a"], relevant: [] }
]

describe("summarize", () => {
  const rows = summarize(outcomes)
  const row = (label: string) => rows.find((r) => r.label === label)

  test("gives one row per kind present, in a fixed order, then overall", () => {
    expect(rows.map((r) => r.label)).toEqual(["lexical", "paraphrase", "negative", "overall"])
  })

  test("averages reciprocal rank and hits over a kind's queries", () => {
    const lexical = row("lexical")!
    expect(lexical.mrr).toBeCloseTo((1 + 1 / 3) / 2, 12)
    expect([lexical.hit1, lexical.hit3, lexical.hit5]).toEqual([0.5, 1, 1])
    expect(lexical.negativesEmpty).toBeNull()
    const paraphrase = row("paraphrase")!
    expect(paraphrase.mrr).toBeCloseTo(1 / 12, 12)
    expect([paraphrase.hit1, paraphrase.hit3, paraphrase.hit5]).toEqual([0, 0, 0])
  })

  test("scores negatives only by the share answered with nothing", () => {
    expect(row("negative")).toEqual({ label: "negative", queries: 2, answerable: 0, mrr: null, hit1: null, hit3: null, hit5: null, negativesEmpty: 0.5 })
  })

  test("keeps negatives out of the overall MRR and hits", () => {
    const overall = row("overall")!
    expect(overall.queries).toBe(6)
    expect(overall.answerable).toBe(4)
    expect(overall.mrr).toBeCloseTo((1 + 1 / 3 + 1 / 6 + 0) / 4, 12)
    expect([overall.hit1, overall.hit3, overall.hit5]).toEqual([0.25, 0.5, 0.5])
    expect(overall.negativesEmpty).toBe(0.5)
  })
})

describe("formatTable", () => {
  test("prints a markdown table with three decimals and a dash where a figure does not apply", () => {
    const rows = summarize(outcomes).filter((r) => r.label === "lexical" || r.label === "negative")
    expect(formatTable(rows)).toBe(
      [
        "| kind | queries | MRR | hit@1 | hit@3 | hit@5 | negatives empty |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
        "| lexical | 2 | 0.667 | 0.500 | 1.000 | 1.000 | – |",
        "| negative | 2 | – | – | – | – | 0.500 |"
      ].join("\n")
    )
  })
})

describe("queryHalf", () => {
  test("tunes on odd-numbered ids and holds out even-numbered ones", () => {
    expect(["q001", "q002", "q217", "q218", "q1001"].map(queryHalf)).toEqual(["tune", "holdout", "tune", "holdout", "tune"])
  })
})

describe("BM25 baseline", () => {
  const SHOP = "github.com/acme/shop"
  const API = "github.com/acme/api"
  const memories: BenchMemory[] = [
    { key: "m0001", content: "Deploy the shop by promoting the staging build.", category: "command", project: SHOP, tags: [] },
    { key: "m0002", content: "Deploy the shop by pushing a release tag.", category: "command", project: SHOP, tags: [], supersedes: "m0001" },
    { key: "m0003", content: "Deploy the api with fly deploy from CI.", category: "command", project: API, tags: [] },
    { key: "m0004", content: "Never deploy on Fridays.", category: "preference", project: null, tags: [] },
    { key: "m0005", content: "Format code with prettier.", category: "convention", project: SHOP, tags: [] }
  ]

  test("ranks the project's and global memories, never another project's or a superseded one", () => {
    const keys = bm25Rank(memories, { query: "how do I deploy?", project: SHOP }, 10)
    expect([...keys].sort()).toEqual(["m0002", "m0004"])
    expect(bm25Rank(memories, { query: "deploying", project: null }, 10)).toEqual(["m0004"])
  })

  test("stems words and ranks the closer match first", () => {
    expect(bm25Rank(memories, { query: "deploying with a release tag", project: SHOP }, 10)[0]).toBe("m0002")
  })

  test("returns nothing when no word matches, and respects the limit", () => {
    expect(bm25Rank(memories, { query: "kubernetes helm", project: SHOP }, 10)).toEqual([])
    expect(bm25Rank(memories, { query: "deploy", project: SHOP }, 1)).toHaveLength(1)
  })

  test("treats FTS5 syntax in a query as plain words", () => {
    expect(matchExpression('NOT (deploy*) OR "tag" NEAR: ^shop')).toBe('"not" OR "deploy" OR "or" OR "tag" OR "near" OR "shop"')
    expect(matchExpression("?! -- ()")).toBeNull()
    const index = createBm25Index(memories)
    try {
      expect(() => index.rank({ query: 'deploy" OR content:* AND (', project: SHOP }, 5)).not.toThrow()
      expect(index.rank({ query: "?!", project: SHOP }, 5)).toEqual([])
    } finally {
      index.close()
    }
  })
})

describe("the data set", () => {
  const report = validateDataset()

  test("uses memledger's own categories", () => {
    expect(BENCH_CATEGORIES).toEqual(CATEGORIES)
  })

  test("passes every check", () => {
    expect(report.errors).toEqual([])
  })

  test("meets the minimum sizes the benchmark sets", () => {
    expect(report.memories).toBeGreaterThanOrEqual(MINIMUM.memories)
    expect(report.perProject.length).toBeGreaterThanOrEqual(MINIMUM.projects)
    expect(report.supersededPairs).toBeGreaterThanOrEqual(MINIMUM.supersededPairs)
    for (const kind of QUERY_KINDS) expect(report.perKind[kind]).toBeGreaterThanOrEqual(MINIMUM.perKind[kind])
  })

  test("has first-batch paraphrases that share no content word with their answers, second-batch ones at most one with each", () => {
    expect(report.overlap.paraphrase?.max).toBe(0)
    expect(report.overlapBatch2.paraphrase?.max).toBeLessThanOrEqual(PARAPHRASE_SHARED_MAX[2])
    expect(report.paraphraseLeaks).toEqual([])
  })

  test("splits every kind of the second batch into both halves", () => {
    for (const kind of ["task", "paraphrase", "code", "negative"] as const) {
      expect(report.batch2[kind].tune).toBeGreaterThan(0)
      expect(report.batch2[kind].holdout).toBeGreaterThan(0)
    }
  })
})

describe("the query checks", () => {
  test("reject a paraphrase sharing more words than its batch allows and a code query that writes the name as its answer does", () => {
    const dir = mkdtempSync(join(tmpdir(), "retrieval-"))
    try {
      const memory = { key: "m0001", content: "Run `pnpm install --frozen-lockfile` before building the shop.", category: "command", project: null, tags: ["pnpm"] }
      const query = (id: string, kind: string, text: string, batch?: number) =>
        JSON.stringify({ id, kind, query: text, project: null, relevant: ["m0001"], ...(batch === undefined ? {} : { batch }) })
      writeFileSync(join(dir, "memories.jsonl"), `${JSON.stringify(memory)}\n`)
      writeFileSync(
        join(dir, "queries.jsonl"),
        [
          query("q001", "paraphrase", "install the packages before building", 2), // install, build: two
          query("q002", "paraphrase", "fetch the libraries before building", 2), // build: one
          query("q003", "paraphrase", "get libraries prior to building"), // batch 1, build: one
          query("q004", "code", "what does --frozen-lockfile do", 2),
          query("q005", "code", "frozen lockfile flag for pnpm", 2)
        ].join("\n")
      )
      const errors = validateDataset(dir).errors
      const named = (id: string) => errors.some((e) => new RegExp(`\\b${id}\\b`).test(e))
      expect(["q001", "q002", "q003", "q004", "q005"].map(named)).toEqual([true, false, true, true, false])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("contentWords", () => {
  test("stems like FTS5 porter and drops stop words", () => {
    expect([...contentWords(["Deploying the deploys, and then a deployment"])[0]!].sort()).toEqual(["deploi", "deploy"])
  })
})
