/** Moving and keeping the store: import, export, replay, rebuild, verify, purge. */
import { existsSync, readFileSync, statSync } from "node:fs"
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { Maintenance } from "../../../services/maintenance.js"
import { count } from "../format.js"
import { UsageError } from "../output.js"
import { withProgress } from "../progress.js"
import * as O from "../options.js"
import { CREATES, mem, withOperations, withStore } from "../root.js"
import type { VerifyReport } from "../../../store/store-maintenance.js"
import type { CopyPurge } from "../../../store/store-copies.js"
import { importTranscripts, type TranscriptImport } from "../../../capture/transcripts/import-transcripts.js"
import { hookStoreOf } from "../../../hooks/hooks-log.js"
import { defaultDbPath } from "../../../store/default-path.js"
import { configuredModel } from "./capture.js"

/** A JSONL file to read, or `-` for standard input. */
const input = (what: string) => Args.text({ name: "file" }).pipe(Args.withDescription(`${what} (JSONL), or - for standard input`))

/**
 * Reads a file, or standard input for "-". Standard input is read as a stream, to its end: one
 * synchronous read of fd 0 fails with EAGAIN on a non-blocking pipe that is empty but still
 * open, which is any pipe whose producer is slower than this reader.
 */
const readInput = (path: string) =>
  Effect.tryPromise({
    try: async () => (path === "-" ? await readStdin() : readFileSync(path, "utf8")),
    catch: (error) => new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`)
  })

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

export const importCmd = Command.make(
  "import",
  {
    file: input("memories or exported events; with --transcripts, a transcript file or a folder of them"),
    transcripts: Options.boolean("transcripts").pipe(
      Options.withDescription("FILE is Claude Code or Codex session transcripts (a .jsonl file or a folder): capture their rules and lessons")
    ),
    origin: Options.text("origin").pipe(Options.withDescription("the conversation the import is recorded under (default import:FILE)"), Options.optional),
    agent: O.agent,
    json: O.json
  },
  (a) => (a.transcripts ? importTranscriptFiles(a) : importLines(a))
).pipe(
  Command.withDescription("Import memories (or exported events) from a JSONL file, '-' for stdin; with --transcripts, capture from past agent sessions")
)

interface ImportArgs {
  readonly file: string
  readonly origin: Option.Option<string>
  readonly agent: string
  readonly json: boolean
}

/** Memory lines or an exported log, into the store file. */
const importLines = (a: ImportArgs) =>
  withStore(
    Effect.gen(function* () {
      const origin = a.origin._tag === "Some" ? a.origin.value : `import:${a.file === "-" ? "stdin" : a.file.split("/").pop()}`
      yield* O.checkWho({ origin, agent: a.agent })
      const text = yield* readInput(a.file)
      const m = yield* Maintenance
      return yield* withProgress("importing", (update) => m.importJsonl(text, { origin, agent: a.agent }, update))
    }),
    { json: a.json, human: (r) => `imported ${count(r.imported, "memory", "memories")}, confirmed ${r.confirmed} already known${r.events ? `, ${count(r.events, "event")}` : ""}` },
    CREATES
  )

/**
 * Past sessions, captured through Operations (the store file, or MEMLEDGER_URL's server) with
 * each session as origin; with a language model configured, read by it too.
 */
const importTranscriptFiles = (a: ImportArgs) =>
  Effect.flatMap(mem, ({ db }) =>
    withOperations(
      Effect.gen(function* () {
        if (a.file === "-" || !existsSync(a.file)) return yield* Effect.fail(new UsageError(`cannot read ${a.file}: give a transcript file or a folder of them`))
        const config = yield* configuredModel
        const extraction = config === undefined ? undefined : { config, store: hookStoreOf(Option.getOrUndefined(db), defaultDbPath()) }
        return yield* withProgress("importing transcripts", (update) => importTranscripts(a.file, update, extraction))
      }),
      { json: a.json, human: transcriptImportText },
      CREATES
    )
  )

const transcriptImportText = (r: TranscriptImport): string => {
  const read = `read ${count(r.sessions, "session")} in ${count(r.files, "file")}: ${count(r.written, "memory", "memories")} captured or confirmed`
  if (r.extracted === undefined) return read
  const { parts, written, failed } = r.extracted
  const model = `${written} of them by the language model, from ${count(parts, "new part")} of the sessions`
  return `${read}, ${model}${failed > 0 ? `; it failed on ${count(failed, "session")} (hooks.log says why)` : ""}`
}

export const exportCmd = Command.make(
  "export",
  {
    file: Args.text({ name: "file" }).pipe(Args.withDescription("the file to write the log to, as JSONL")),
    force: Options.boolean("force").pipe(Options.withDescription("overwrite FILE if it exists")),
    verified: Options.boolean("verified").pipe(
      Options.withDescription("end at the first event that does not verify, writing the events before it (to replay into a new store)")
    ),
    json: O.json
  },
  (a) =>
    withStore(
      Effect.gen(function* () {
        // A directory is the export's own error to name (it is never overwritten, --force or not).
        if (existsSync(a.file) && !a.force && !statSync(a.file).isDirectory()) return yield* Effect.fail(new UsageError(`${a.file} exists; pass --force to overwrite it`))
        return yield* Effect.flatMap(Maintenance, (m) => withProgress("exporting", (onProgress) => m.exportTo(a.file, { verified: a.verified, onProgress })))
      }),
      {
        json: a.json,
        human: (r) => `exported ${count(r.events, "event")} to ${r.file}`,
        notice: (r) =>
          r.stoppedAt === undefined
            ? undefined
            : `stopped before event #${r.stoppedAt}, which does not verify (${r.reason}); it and the events after it are not in ${r.file}`
      }
    )
).pipe(Command.withDescription("Write the whole event log to FILE as JSONL"))

export const replay = Command.make("replay", { file: input("an exported log"), json: O.json }, (a) =>
  withStore(
    Effect.gen(function* () {
      const text = yield* readInput(a.file)
      const m = yield* Maintenance
      return yield* withProgress("replaying", (update) => m.replay(text, update))
    }),
    { json: a.json, human: (r) => `replayed ${count(r.events, "event")}` },
    CREATES
  )
).pipe(Command.withDescription("Rebuild a store from an exported log, into an empty --db"))

export const rebuild = Command.make("rebuild", { json: O.json }, (a) =>
  withStore(
    Effect.flatMap(Maintenance, (m) => withProgress("rebuilding", (update) => m.rebuild(update))),
    { json: a.json, human: (r) => `rebuilt every projection from ${count(r.events, "event")}` }
  )
).pipe(Command.withDescription("Drop every projection and replay the log into it"))

export const verify = Command.make("verify", { json: O.json }, (a) =>
  withStore(
    Effect.flatMap(Maintenance, (m) => withProgress("verifying", (update) => m.verify(update))).pipe(
      Effect.tap((r) => Effect.sync(() => void (r.ok || (process.exitCode = 1))))
    ),
    {
      json: a.json,
      human: (r) =>
        [
          `${r.ok ? "ok" : "FAILED"}: ${count(r.events, "event")}`,
          `hash chain:   ${r.chain.ok ? "ok" : `broken at #${r.chain.brokenAt}: ${r.chain.reason}`}`,
          `projections:  ${r.projections.ok ? "equal a rebuild" : `differ from a rebuild in ${r.projections.differences.map((d) => d.projection).join(", ")}`}`,
          `integrity:    ${r.integrity}`,
          ...writesLine(r)
        ].join("\n")
    }
  )
).pipe(Command.withDescription("Check the hash chain, SQLite's integrity, and projections against a rebuild"))

export const purge = Command.make(
  "purge",
  {
    yes: Options.boolean("yes").pipe(Options.withDescription("really erase; without it, only show what would go")),
    memories: Options.boolean("memories").pipe(Options.withDescription("also erase the text of forgotten memories")),
    json: O.json
  },
  (a) =>
    Effect.flatMap(mem, ({ db }) =>
      withStore(
        Effect.gen(function* () {
          const m = yield* Maintenance
          if (a.yes) return { done: true as const, ...(yield* withProgress("purging", (update) => m.purge({ memories: a.memories }, update))) }
          return { done: false as const, ...(yield* m.purgePreview({ memories: a.memories })) }
        }),
        {
          json: a.json,
          human: (r) => purgeText(r, purgeCommand(db, a.memories))
        }
      )
    )
).pipe(Command.withDescription("Erase forgotten text from disk for good (cannot be undone)"))

/**
 * What purge did, or (without --yes) would do, in the store and then in its backup copies.
 * Erasing nothing is said as such: "cannot be undone" is a warning about text that is gone,
 * and there is none.
 */
const purgeText = (r: PurgeResult, command: string): string => [storePurgeText(r, command), ...heldText(r, command), ...copiesText(r)].join("\n")

/** PostgreSQL sessions that still saw the erased text: it stays on disk until they end. */
const heldText = (r: PurgeResult, command: string): string[] =>
  r.heldBy === undefined || r.heldBy.length === 0
    ? []
    : [`the database still keeps the erased text for ${count(r.heldBy.length, "session")} that could see it (${r.heldBy.join(", ")}); run '${command}' again once they end`]

interface PurgeResult {
  readonly done: boolean
  readonly conversations: ReadonlyArray<string>
  readonly memories: number
  readonly erasedEvents?: number
  readonly heldBy?: ReadonlyArray<string>
  readonly copies: ReadonlyArray<CopyPurge>
}

const storePurgeText = (r: PurgeResult, command: string): string => {
  const memories = (n: number) => count(n, "forgotten memory", "forgotten memories")
  const inCopies = r.copies.reduce((n, c) => n + (c.erasedEvents ?? 0), 0)
  if (r.done && r.erasedEvents === 0 && inCopies === 0) return "nothing to purge: no forgotten conversation or memory holds text; nothing was erased"
  if (r.done && r.erasedEvents === 0) return "nothing to purge in the store: it holds no forgotten text"
  if (r.done) {
    const what = [count(r.conversations.length, "conversation"), ...(r.memories ? [memories(r.memories)] : [])].join(", ")
    return `purged: erased ${count(r.erasedEvents ?? 0, "event payload")} (${what}). This cannot be undone.`
  }
  if (r.conversations.length === 0 && r.memories === 0) return "nothing to purge: no forgotten conversation holds text"
  const conversations = `${count(r.conversations.length, "forgotten conversation")}${r.conversations.length ? `: ${r.conversations.join(", ")}` : ""}`
  return `would erase the text of ${conversations}${r.memories ? ` and ${memories(r.memories)}` : ""}\npurge cannot be undone; run '${command}' to do it`
}

/** The backup copies: those purged, those a purge goes through, and those left holding forgotten text. */
const copiesText = (r: PurgeResult): string[] => {
  const left = r.copies.filter((c) => c.problem !== undefined)
  const reached = r.copies.filter((c) => c.problem === undefined)
  const purged = reached.filter((c) => (c.erasedEvents ?? 0) > 0)
  const lines = r.done
    ? purged.map((c) => `purged backup copy ${c.file}: erased ${count(c.erasedEvents ?? 0, "event payload")}`)
    : reached.length
      ? [`it erases the same in ${count(reached.length, "backup copy", "backup copies")} of this store`]
      : []
  return [...lines, ...left.map((c) => `backup copy ${c.file} may still hold forgotten text: ${c.problem}`)]
}

/** What a verify did about writes, when it did something: refused them from now on, or allowed them again. */
const writesLine = (r: VerifyReport): string[] => {
  if (r.writes === undefined) return []
  if ("refused" in r.writes) {
    const { brokenAt } = r.writes.refused
    return [
      `writes:       refused from now on, by every process; 'mem export --verified FILE' writes the ${brokenAt - 1} events before #${brokenAt}, and 'mem --db NEW.db replay FILE' makes a new store of them`
    ]
  }
  return [`writes:       the log verified broken at #${r.writes.lifted.brokenAt} before; it is whole now, so writes are allowed again`]
}

/** The command that does what a dry run showed: the same store and the same options, plus --yes. */
const purgeCommand = (db: Option.Option<string>, memories: boolean): string =>
  ["mem", ...Option.match(db, { onNone: () => [], onSome: (path) => ["--db", shellWord(path)] }), "purge", ...(memories ? ["--memories"] : []), "--yes"].join(" ")

/** `word` as a POSIX shell reads it back: bare when it is plainly safe, else single-quoted. */
const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`)
