/**
 * Reads and checks the retrieval data set (memories.jsonl, queries.jsonl), and measures what the
 * data set claims about itself: paraphrases share (almost) no content word with their answers,
 * negatives ask about something no memory mentions, code queries name an answer's identifier in
 * another spelling, hard distractors and superseded pairs exist.
 *
 *   npx esbuild bench/retrieval/validate.ts --bundle --platform=node --format=esm \
 *     --external:better-sqlite3 --outfile=bench/.data/retrieval-validate.mjs \
 *     && node bench/.data/retrieval-validate.mjs
 *
 * Exits non-zero when a check fails. Words are compared as SQLite FTS5 sees them
 * (`porter unicode61`: lower-cased, split on anything but letters and digits, Porter-stemmed),
 * so "deploying" and "deploys" count as the same word, exactly as a BM25 search would match them.
 */
import { existsSync, readFileSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import { CATEGORIES } from "../../src/domain/vocabulary.js"
import { QUERY_KINDS, queryHalf, type QueryKind } from "./metrics.js"

export { CATEGORIES }

export interface BenchMemory {
  readonly key: string
  readonly content: string
  readonly category: (typeof CATEGORIES)[number]
  readonly project: string | null
  readonly tags: ReadonlyArray<string>
  /** The older memory this one replaces. */
  readonly supersedes?: string
  /** Questions or needs this memory answers, worded the way someone would ask when they need it; see CUES for the limits. */
  readonly cues?: ReadonlyArray<string>
}

/** The round of writing a query came from; a line without `batch` is from the first. */
export type QueryBatch = 1 | 2

export interface BenchQuery {
  readonly id: string
  readonly kind: QueryKind
  readonly batch: QueryBatch
  readonly query: string
  /** The project the agent works in; global memories always apply. */
  readonly project: string | null
  /** Keys that answer the query, best first; empty for a negative. */
  readonly relevant: ReadonlyArray<string>
}

export interface Dataset {
  readonly memories: ReadonlyArray<BenchMemory>
  readonly queries: ReadonlyArray<BenchQuery>
}

/** The fewest queries of each kind; `code` came later, with the second batch. */
const PER_KIND_MINIMUM: Readonly<Record<QueryKind, number>> = { lexical: 40, task: 40, paraphrase: 40, code: 25, negative: 40 }

export const MINIMUM = { memories: 500, projects: 3, perKind: PER_KIND_MINIMUM, supersededPairs: 25 } as const

/**
 * The most content words a paraphrase may share with its answers. Batch 1 compares the query with
 * the union of its answers' content and allows none. Batch 2 compares it with each answer's
 * content, tags and category (all the text a search can see) and allows one, because a question
 * asked in one's own words rarely avoids every word of the answer.
 */
export const PARAPHRASE_SHARED_MAX: Readonly<Record<QueryBatch, number>> = { 1: 0, 2: 1 }

/** Length of a batch-2 query, in words separated by white space. */
export const QUERY_WORDS = { min: 3, max: 25 } as const

/** A memory's optional cues: 1 to `max` non-empty strings of at most `words` words each. */
export const CUES = { max: 5, words: 32 } as const

/** The folder holding the data set: beside this file, or bench/retrieval under the working directory once bundled. */
export const datasetDir = (): string => {
  const here = dirname(fileURLToPath(import.meta.url))
  return existsSync(join(here, "memories.jsonl")) ? here : join(process.cwd(), "bench", "retrieval")
}

/** Parses both files; throws listing every malformed line. Use `validateDataset` for the full checks. */
export const loadDataset = (dir = datasetDir()): Dataset => {
  const parsed = parseDataset(dir)
  if (parsed.errors.length > 0) throw new Error(`malformed data set:\n${parsed.errors.join("\n")}`)
  return parsed.dataset
}

export interface OverlapStats {
  readonly queries: number
  readonly mean: number
  readonly max: number
  readonly withOverlap: number
}

export interface ValidationReport {
  readonly errors: ReadonlyArray<string>
  readonly memories: number
  readonly globalMemories: number
  /** Cues over all memories, and the memories that carry any. */
  readonly cues: number
  readonly memoriesWithCues: number
  readonly perProject: ReadonlyArray<readonly [string, number]>
  readonly supersededPairs: number
  readonly perKind: Readonly<Record<QueryKind, number>>
  /** Batch 1: content words (stems, stop words excluded) a query shares with the union of its answers' content, by kind. */
  readonly overlap: Readonly<Partial<Record<QueryKind, OverlapStats>>>
  /** Batch 2: the most content words a query shares with one of its answers (content, tags and category), by kind. */
  readonly overlapBatch2: Readonly<Partial<Record<QueryKind, OverlapStats>>>
  /** Paraphrases sharing more content words with their answers than their batch allows, with the shared words. */
  readonly paraphraseLeaks: ReadonlyArray<string>
  /** Batch-2 queries per kind, split into the tuning and held-out halves (`queryHalf`). */
  readonly batch2: Readonly<Record<QueryKind, { readonly tune: number; readonly holdout: number }>>
  /** Groups of live memories that share most of their content words (hard distractors for each other). */
  readonly distractorGroups: ReadonlyArray<ReadonlyArray<string>>
}

export const validateDataset = (dir = datasetDir()): ValidationReport => {
  const { dataset, errors } = parseDataset(dir)
  const { memories, queries } = dataset
  const byKey = new Map(memories.map((m) => [m.key, m]))
  const superseded = new Set(memories.flatMap((m) => (m.supersedes === undefined ? [] : [m.supersedes])))

  for (const [key, n] of counts(memories.map((m) => m.key))) if (n > 1) errors.push(`memory key ${key} is used ${n} times`)
  for (const [id, n] of counts(queries.map((q) => q.id))) if (n > 1) errors.push(`query id ${id} is used ${n} times`)
  for (const [text, n] of counts(memories.map((m) => normalise(m.content)))) if (n > 1) errors.push(`${n} memories say "${text}"`)

  let supersededPairs = 0
  for (const m of memories) {
    if (m.supersedes === undefined) continue
    const old = byKey.get(m.supersedes)
    if (old === undefined) errors.push(`${m.key} supersedes unknown ${m.supersedes}`)
    else if (old.key === m.key) errors.push(`${m.key} supersedes itself`)
    else if (old.project !== m.project) errors.push(`${m.key} supersedes ${old.key} from another scope`)
    else if (old.supersedes !== undefined || superseded.has(m.key)) errors.push(`${m.key} is part of a supersession chain`)
    else supersededPairs++
  }

  for (const q of queries) {
    if (q.kind === "negative" && q.relevant.length > 0) errors.push(`${q.id}: a negative lists relevant memories`)
    if (q.kind !== "negative" && q.relevant.length === 0) errors.push(`${q.id}: no relevant memory`)
    for (const key of new Set(q.relevant)) {
      const m = byKey.get(key)
      if (m === undefined) errors.push(`${q.id}: relevant ${key} does not exist`)
      else if (superseded.has(key)) errors.push(`${q.id}: relevant ${key} is superseded; point at the newer memory`)
      else if (m.project !== null && m.project !== q.project) errors.push(`${q.id}: relevant ${key} belongs to ${m.project}, the query to ${q.project ?? "no project"}`)
    }
    if (new Set(q.relevant).size !== q.relevant.length) errors.push(`${q.id}: relevant lists a key twice`)
    const length = q.query.trim().split(/\s+/).length
    if (q.batch === 2 && (length < QUERY_WORDS.min || length > QUERY_WORDS.max))
      errors.push(`${q.id}: ${length} words; a batch-2 query has ${QUERY_WORDS.min} to ${QUERY_WORDS.max}`)
  }
  for (const [text, n] of counts(queries.map((q) => `${q.project ?? "global"}: ${normalise(q.query)}`))) if (n > 1) errors.push(`${n} queries ask "${text}"`)

  const perProject = [...counts(memories.flatMap((m) => (m.project === null ? [] : [m.project])))].sort((a, b) => b[1] - a[1])
  const perKind = Object.fromEntries(QUERY_KINDS.map((k) => [k, queries.filter((q) => q.kind === k).length])) as Record<QueryKind, number>
  if (memories.length < MINIMUM.memories) errors.push(`${memories.length} memories, fewer than ${MINIMUM.memories}`)
  if (perProject.length < MINIMUM.projects) errors.push(`${perProject.length} projects, fewer than ${MINIMUM.projects}`)
  if (supersededPairs < MINIMUM.supersededPairs) errors.push(`${supersededPairs} superseded pairs, fewer than ${MINIMUM.supersededPairs}`)
  for (const kind of QUERY_KINDS) if (perKind[kind] < MINIMUM.perKind[kind]) errors.push(`${perKind[kind]} ${kind} queries, fewer than ${MINIMUM.perKind[kind]}`)

  const words = contentWords([...memories.map((m) => m.content), ...queries.map((q) => q.query), ...memories.map(searchableText)])
  const memoryWords = new Map(memories.map((m, i) => [m.key, words[i]!]))
  const queryWords = queries.map((_, i) => words[memories.length + i]!)
  const searchableWords = new Map(memories.map((m, i) => [m.key, words[memories.length + queries.length + i]!]))

  /** The words a query shares with its answers, as its batch measures them: one entry for batch 1 (the union), one per answer for batch 2. */
  const sharedWords = (q: BenchQuery, i: number): Array<{ readonly key: string | null; readonly words: string[] }> => {
    const mine = [...queryWords[i]!]
    if (q.batch === 1) {
      const answer = new Set(q.relevant.flatMap((key) => [...(memoryWords.get(key) ?? [])]))
      return [{ key: null, words: mine.filter((w) => answer.has(w)) }]
    }
    return q.relevant.map((key) => ({ key, words: mine.filter((w) => searchableWords.get(key)?.has(w) === true) }))
  }

  const paraphraseLeaks: string[] = []
  const shared = queries.map((q, i) => {
    if (q.relevant.length === 0) return null
    const perAnswer = sharedWords(q, i)
    if (q.kind === "paraphrase") {
      const max = PARAPHRASE_SHARED_MAX[q.batch]
      for (const { key, words: common } of perAnswer)
        if (common.length > max) paraphraseLeaks.push(`${q.id} "${q.query}" shares ${common.join(", ")}${key === null ? "" : ` with ${key}`}; batch ${q.batch} allows ${max}`)
    }
    return Math.max(...perAnswer.map((a) => a.words.length))
  })
  for (const leak of paraphraseLeaks) errors.push(`paraphrase leak: ${leak}`)
  const overlapOf = (batch: QueryBatch): Partial<Record<QueryKind, OverlapStats>> => {
    const out: Partial<Record<QueryKind, OverlapStats>> = {}
    for (const kind of QUERY_KINDS) {
      const n = queries.flatMap((q, i) => (q.kind === kind && q.batch === batch && shared[i] !== null ? [shared[i]!] : []))
      if (n.length > 0) out[kind] = { queries: n.length, mean: sum(n) / n.length, max: Math.max(...n), withOverlap: n.filter((x) => x > 0).length }
    }
    return out
  }

  for (const q of queries) {
    if (q.kind !== "code" || q.relevant.length === 0) continue
    const answers = q.relevant.flatMap((key) => byKey.get(key)?.content ?? [])
    const spelledAsWritten = answers.flatMap(codeNames).filter((name) => q.query.toLowerCase().includes(name.toLowerCase()))
    if (spelledAsWritten.length > 0) errors.push(`${q.id}: code query "${q.query}" writes ${spelledAsWritten.join(", ")} as its answer does; spell the name another way`)
    const parts = nameParts(answers[0] ?? "")
    if (![...nameParts(q.query)].some((p) => parts.has(p))) errors.push(`${q.id}: code query "${q.query}" shares no part of a name with ${q.relevant[0]}`)
  }

  const corpus = new Set(memories.flatMap((m) => [...memoryWords.get(m.key)!]))
  queries.forEach((q, i) => {
    if (q.kind === "negative" && [...queryWords[i]!].every((w) => corpus.has(w)))
      errors.push(`${q.id}: every content word of negative "${q.query}" occurs in some memory; it needs a topic no memory mentions`)
  })

  const live = memories.filter((m) => !superseded.has(m.key))
  const distractorGroups = similarGroups(live.map((m) => ({ key: m.key, words: memoryWords.get(m.key)! })))

  return {
    errors,
    memories: memories.length,
    globalMemories: memories.filter((m) => m.project === null).length,
    cues: sum(memories.map((m) => m.cues?.length ?? 0)),
    memoriesWithCues: memories.filter((m) => m.cues !== undefined).length,
    perProject,
    supersededPairs,
    perKind,
    overlap: overlapOf(1),
    overlapBatch2: overlapOf(2),
    paraphraseLeaks,
    batch2: Object.fromEntries(
      QUERY_KINDS.map((k) => {
        const ids = queries.filter((q) => q.batch === 2 && q.kind === k).map((q) => queryHalf(q.id))
        return [k, { tune: ids.filter((h) => h === "tune").length, holdout: ids.filter((h) => h === "holdout").length }]
      })
    ) as Record<QueryKind, { tune: number; holdout: number }>,
    distractorGroups
  }
}

/** Two live memories are near-lexical when they share at least half of the shorter one's content words (and three or more). */
export const NEAR_LEXICAL = { share: 0.5, atLeast: 3 } as const

/**
 * Each content text as its set of Porter stems, stop words removed, computed by SQLite FTS5
 * itself (fts5vocab over a `porter unicode61` table) so the words are exactly what BM25 matches.
 */
export const contentWords = (texts: ReadonlyArray<string>): Array<Set<string>> => {
  const db = new Database(":memory:")
  try {
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'porter unicode61'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');")
    const insert = db.prepare("INSERT INTO t (rowid, body) VALUES (?, ?)")
    db.transaction(() => {
      insert.run(0, STOP_WORDS.join(" "))
      texts.forEach((text, i) => insert.run(i + 1, text))
    })()
    const sets = Array.from({ length: texts.length + 1 }, () => new Set<string>())
    for (const row of db.prepare("SELECT term, doc FROM v").iterate() as Iterable<{ term: string; doc: number }>) sets[row.doc]!.add(row.term)
    const stop = sets[0]!
    return sets.slice(1).map((words) => new Set([...words].filter((w) => !stop.has(w))))
  } finally {
    db.close()
  }
}

/** Everything a search can match in a memory: its content, tags and category. */
export const searchableText = (m: BenchMemory): string => `${m.content} ${m.tags.join(" ")} ${m.category}`

/**
 * Names written as code in a text: flags (`--frozen-lockfile`), words joined by `_`, `.`, `/` or
 * `::` (`lib/auth.ts`, `DATABASE_URL`, `Option::is_none`) and camelCase (`mergeCarts`). Hyphenated
 * words and capitalised names are left out, since prose and product names (`shop-web`, `gRPC`,
 * `JetStream`) look the same.
 */
export const codeNames = (text: string): string[] =>
  (text.match(/--[a-z0-9]+(?:-[a-z0-9]+)*|[A-Za-z0-9]+(?:(?:[._/]|::)[A-Za-z0-9]+)+|\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+\b/g) ?? []).filter((name) =>
    /[A-Za-z]/.test(name)
  )

/** The parts of the names in a text, lower-cased, stop words left out: `getServerSession` and "get server session" both give get, server, session. */
export const nameParts = (text: string): Set<string> =>
  new Set(
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((p) => p.length > 0 && !STOP_WORDS.includes(p))
  )

/** A common English stop-word list: function words that carry no topic. */
export const STOP_WORDS = (
  "a about above after again against all am an and any are as at be because been before being below between both but by " +
  "can cannot could did do does doing don down during each few for from further had has have having he her here hers " +
  "herself him himself his how i if in into is it its itself just me more most my myself no nor not of off on once only " +
  "or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then " +
  "there these they this those through to too under until up very was we were what when where which while who whom why " +
  "will with would you your yours yourself yourselves s t d ll m re ve"
).split(" ")

// ---------------------------------------------------------------------------------------------

interface Parsed {
  readonly dataset: { memories: BenchMemory[]; queries: BenchQuery[] }
  readonly errors: string[]
}

const parseDataset = (dir: string): Parsed => {
  const errors: string[] = []
  const memories = parseLines(join(dir, "memories.jsonl"), errors, toMemory)
  const queries = parseLines(join(dir, "queries.jsonl"), errors, toQuery)
  return { dataset: { memories, queries }, errors }
}

const parseLines = <T>(file: string, errors: string[], decode: (value: unknown) => T | string): T[] => {
  if (!existsSync(file)) {
    errors.push(`${file} is missing`)
    return []
  }
  const out: T[] = []
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return
      const where = `${basename(file)}:${i + 1}`
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        errors.push(`${where}: not JSON`)
        return
      }
      const decoded = decode(value)
      if (typeof decoded === "string") errors.push(`${where}: ${decoded}`)
      else out.push(decoded)
    })
  return out
}

const MEMORY_FIELDS = new Set(["key", "content", "category", "project", "tags", "supersedes", "cues"])
const QUERY_FIELDS = new Set(["id", "kind", "query", "project", "relevant", "batch"])
const PROJECT = /^github\.com\/[\w.-]+\/[\w.-]+$/

const toMemory = (value: unknown): BenchMemory | string => {
  if (!isRecord(value)) return "not an object"
  const extra = Object.keys(value).filter((k) => !MEMORY_FIELDS.has(k))
  if (extra.length > 0) return `unknown field ${extra.join(", ")}`
  const { key, content, category, project, tags, supersedes, cues } = value
  if (typeof key !== "string" || !/^m\d{4}$/.test(key)) return "key must look like m0001"
  if (typeof content !== "string" || content.trim().length === 0 || content.length > 10_000) return `${key}: content must be 1 to 10,000 characters`
  if (!CATEGORIES.some((c) => c === category)) return `${key}: unknown category ${String(category)}`
  if (!(project === null || (typeof project === "string" && PROJECT.test(project)))) return `${key}: project must be null or github.com/owner/repo`
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === "string" && t.length > 0)) return `${key}: tags must be non-empty strings`
  if (supersedes !== undefined && (typeof supersedes !== "string" || !/^m\d{4}$/.test(supersedes))) return `${key}: supersedes must be a key`
  if (cues !== undefined && !isCues(cues)) return `${key}: cues must be 1 to ${CUES.max} non-empty strings of at most ${CUES.words} words`
  return {
    key,
    content,
    category: category as BenchMemory["category"],
    project,
    tags: tags as string[],
    ...(supersedes === undefined ? {} : { supersedes }),
    ...(cues === undefined ? {} : { cues })
  }
}

const isCues = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.length >= 1 &&
  value.length <= CUES.max &&
  value.every((c) => typeof c === "string" && c.trim().length > 0 && c.trim().split(/\s+/).length <= CUES.words)

const toQuery = (value: unknown): BenchQuery | string => {
  if (!isRecord(value)) return "not an object"
  const extra = Object.keys(value).filter((k) => !QUERY_FIELDS.has(k))
  if (extra.length > 0) return `unknown field ${extra.join(", ")}`
  const { id, kind, query, project, relevant, batch } = value
  if (typeof id !== "string" || !/^q\d{3,}$/.test(id)) return "id must look like q001"
  if (!(batch === undefined || batch === 1 || batch === 2)) return `${id}: batch must be 1 or 2`
  if (!QUERY_KINDS.some((k) => k === kind)) return `${id}: unknown kind ${String(kind)}`
  if (typeof query !== "string" || query.trim().length === 0) return `${id}: empty query`
  if (!(project === null || (typeof project === "string" && PROJECT.test(project)))) return `${id}: project must be null or github.com/owner/repo`
  if (!Array.isArray(relevant) || !relevant.every((k) => typeof k === "string")) return `${id}: relevant must be a list of keys`
  return { id, kind: kind as QueryKind, batch: batch ?? 1, query, project, relevant: relevant as string[] }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const counts = (items: ReadonlyArray<string>): Map<string, number> => {
  const out = new Map<string, number>()
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1)
  return out
}

const normalise = (text: string): string => text.toLowerCase().replace(/\s+/g, " ").replace(/[.!?]+$/, "").trim()

const sum = (values: ReadonlyArray<number>): number => values.reduce((a, b) => a + b, 0)

/** Connected groups of near-lexical pairs (NEAR_LEXICAL), each sorted by key, largest groups first. */
const similarGroups = (items: ReadonlyArray<{ key: string; words: Set<string> }>): string[][] => {
  const parent = new Map(items.map((m) => [m.key, m.key]))
  const find = (k: string): string => {
    let root = k
    while (parent.get(root) !== root) root = parent.get(root)!
    parent.set(k, root)
    return root
  }
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i]!
      const b = items[j]!
      const shared = [...a.words].filter((w) => b.words.has(w)).length
      if (shared >= NEAR_LEXICAL.atLeast && shared >= NEAR_LEXICAL.share * Math.min(a.words.size, b.words.size)) parent.set(find(a.key), find(b.key))
    }
  }
  const groups = new Map<string, string[]>()
  for (const m of items) groups.set(find(m.key), [...(groups.get(find(m.key)) ?? []), m.key])
  return [...groups.values()].filter((g) => g.length > 1).map((g) => g.sort()).sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!))
}

const printReport = (report: ValidationReport): void => {
  const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(0)}%`
  console.log(`memories: ${report.memories} (${report.globalMemories} global, ${pct(report.globalMemories, report.memories)})`)
  for (const [project, n] of report.perProject) console.log(`  ${project}: ${n}`)
  console.log(`projects: ${report.perProject.length}; superseded pairs: ${report.supersededPairs}`)
  console.log(`cues: ${report.cues} on ${report.memoriesWithCues} memories`)
  console.log(`queries: ${QUERY_KINDS.map((k) => `${k} ${report.perKind[k]}`).join(", ")}`)
  const halves = (k: QueryKind) => `${k} ${report.batch2[k].tune + report.batch2[k].holdout} (tune ${report.batch2[k].tune}, holdout ${report.batch2[k].holdout})`
  console.log(`batch 2: ${QUERY_KINDS.filter((k) => report.batch2[k].tune + report.batch2[k].holdout > 0).map(halves).join(", ")}`)
  const overlapLines = (title: string, overlap: ValidationReport["overlap"]) => {
    console.log(title)
    for (const kind of QUERY_KINDS) {
      const o = overlap[kind]
      if (o) console.log(`  ${kind}: mean ${o.mean.toFixed(2)}, max ${o.max}, ${o.withOverlap} of ${o.queries} share any`)
    }
  }
  overlapLines("batch 1, content words a query shares with its answers' content (porter stems, stop words excluded):", report.overlap)
  overlapLines("batch 2, most content words a query shares with one answer's content, tags and category:", report.overlapBatch2)
  const sizes = report.distractorGroups.map((g) => g.length)
  console.log(
    `near-lexical distractor groups (live memories sharing >= ${NEAR_LEXICAL.share * 100}% of the shorter one's content words): ` +
      `${sizes.length} groups, ${sum(sizes)} memories`
  )
  if (report.errors.length === 0) console.log("valid")
  else {
    console.log(`${report.errors.length} problems:`)
    for (const e of report.errors) console.log(`  ${e}`)
  }
}

if (/validate$/.test(basename(process.argv[1] ?? "").replace(/\.[cm]?[jt]s$/, ""))) {
  const report = validateDataset(process.argv[2] ?? datasetDir())
  printReport(report)
  if (report.errors.length > 0) process.exitCode = 1
}
