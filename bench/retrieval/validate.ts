/**
 * Reads and checks the retrieval data set (memories.jsonl, queries.jsonl), and measures what the
 * data set claims about itself: paraphrases share no content word with their answers, negatives
 * ask about something no memory mentions, hard distractors and superseded pairs exist.
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
import { QUERY_KINDS, type QueryKind } from "./metrics.js"

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

export interface BenchQuery {
  readonly id: string
  readonly kind: QueryKind
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

export const MINIMUM = { memories: 500, projects: 3, perKind: 40, supersededPairs: 25 } as const

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
  /** Content words (stems, stop words excluded) a query shares with the union of its answers, by kind. */
  readonly overlap: Readonly<Partial<Record<QueryKind, OverlapStats>>>
  /** Paraphrases sharing a content word with their answers, with the shared words. */
  readonly paraphraseLeaks: ReadonlyArray<string>
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
  }

  const perProject = [...counts(memories.flatMap((m) => (m.project === null ? [] : [m.project])))].sort((a, b) => b[1] - a[1])
  const perKind = Object.fromEntries(QUERY_KINDS.map((k) => [k, queries.filter((q) => q.kind === k).length])) as Record<QueryKind, number>
  if (memories.length < MINIMUM.memories) errors.push(`${memories.length} memories, fewer than ${MINIMUM.memories}`)
  if (perProject.length < MINIMUM.projects) errors.push(`${perProject.length} projects, fewer than ${MINIMUM.projects}`)
  if (supersededPairs < MINIMUM.supersededPairs) errors.push(`${supersededPairs} superseded pairs, fewer than ${MINIMUM.supersededPairs}`)
  for (const kind of QUERY_KINDS) if (perKind[kind] < MINIMUM.perKind) errors.push(`${perKind[kind]} ${kind} queries, fewer than ${MINIMUM.perKind}`)

  const words = contentWords([...memories.map((m) => m.content), ...queries.map((q) => q.query)])
  const memoryWords = new Map(memories.map((m, i) => [m.key, words[i]!]))
  const queryWords = queries.map((_, i) => words[memories.length + i]!)

  const overlap: Partial<Record<QueryKind, OverlapStats>> = {}
  const paraphraseLeaks: string[] = []
  for (const kind of QUERY_KINDS) {
    const shared = queries.flatMap((q, i) => {
      if (q.kind !== kind || q.relevant.length === 0) return []
      const answer = new Set(q.relevant.flatMap((key) => [...(memoryWords.get(key) ?? [])]))
      const common = [...queryWords[i]!].filter((w) => answer.has(w))
      if (kind === "paraphrase" && common.length > 0) paraphraseLeaks.push(`${q.id} "${q.query}" shares ${common.join(", ")}`)
      return [common.length]
    })
    if (shared.length > 0) overlap[kind] = { queries: shared.length, mean: sum(shared) / shared.length, max: Math.max(...shared), withOverlap: shared.filter((n) => n > 0).length }
  }
  for (const leak of paraphraseLeaks) errors.push(`paraphrase leak: ${leak}`)

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
    overlap,
    paraphraseLeaks,
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
const QUERY_FIELDS = new Set(["id", "kind", "query", "project", "relevant"])
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
  const { id, kind, query, project, relevant } = value
  if (typeof id !== "string" || !/^q\d{3,}$/.test(id)) return "id must look like q001"
  if (!QUERY_KINDS.some((k) => k === kind)) return `${id}: unknown kind ${String(kind)}`
  if (typeof query !== "string" || query.trim().length === 0) return `${id}: empty query`
  if (!(project === null || (typeof project === "string" && PROJECT.test(project)))) return `${id}: project must be null or github.com/owner/repo`
  if (!Array.isArray(relevant) || !relevant.every((k) => typeof k === "string")) return `${id}: relevant must be a list of keys`
  return { id, kind: kind as QueryKind, query, project, relevant: relevant as string[] }
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
  console.log("content words a query shares with its answers (porter stems, stop words excluded):")
  for (const kind of QUERY_KINDS) {
    const o = report.overlap[kind]
    if (o) console.log(`  ${kind}: mean ${o.mean.toFixed(2)}, max ${o.max}, ${o.withOverlap} of ${o.queries} share any`)
  }
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
