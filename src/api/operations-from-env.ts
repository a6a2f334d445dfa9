/**
 * Which `Operations` a process uses: the local store file, or (with MEMLEDGER_URL set) a
 * `mem serve` elsewhere, so `mem mcp` and the CLI on every machine share one store.
 */
import type { Layer } from "effect"
import { LocalOperationsLayer } from "../services/app.js"
import type { Operations } from "./operations.js"

export const operationsLayer = (dbPath: string): Layer.Layer<Operations, unknown> => LocalOperationsLayer(dbPath)
