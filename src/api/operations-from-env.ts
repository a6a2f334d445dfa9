/**
 * Which `Operations` a process uses: the local store file, or (with MEMLEDGER_URL set) a
 * `mem serve` elsewhere, so `mem mcp` and the CLI on every machine share one store.
 */
import { Effect, Layer } from "effect"
import type { DatabaseUnusable, DiskFull, StoreNotFound } from "../domain/errors.js"
import type { EmbedderConfigInvalid } from "../embeddings/errors.js"
import { LocalOperationsLayer } from "../services/app.js"
import { defaultDbPath } from "../store/default-path.js"
import type { Operations, RemoteError } from "./operations.js"
import type { StoreOpening } from "../store/opening.js"
import { remoteFromEnv } from "./remote-config.js"

export { remoteFromEnv, tokenFilePath } from "./remote-config.js"

type OperationsLayer = Layer.Layer<Operations, DatabaseUnusable | StoreNotFound | DiskFull | EmbedderConfigInvalid | RemoteError>

/**
 * Remote when a server is configured (MEMLEDGER_URL), else the store file at `dbPath`. The HTTP
 * client is loaded only when a server is configured: every local command and hook would
 * otherwise pay for building it.
 */
export const operationsLayer = (dbPath: string, env: NodeJS.ProcessEnv = process.env, opening: StoreOpening = {}): OperationsLayer => {
  const remote = remoteFromEnv(env)
  if (remote === undefined) return LocalOperationsLayer(dbPath, undefined, undefined, opening)
  return Layer.unwrapEffect(Effect.map(Effect.promise(() => import("./operations-remote.js")), ({ OperationsRemote }) => OperationsRemote(remote)))
}

/** An explicit store file (`--db`, which beats MEMLEDGER_DB) is local; without one, `operationsLayer` decides. */
export const operationsForStore = (db: string | undefined, opening: StoreOpening = {}): OperationsLayer =>
  db === undefined ? operationsLayer(defaultDbPath(), process.env, opening) : LocalOperationsLayer(db, undefined, undefined, opening)
