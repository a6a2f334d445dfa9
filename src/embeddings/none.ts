/** The `none` provider: no embedder at all, so search is keyword-only. Every call says so. */
import { Effect } from "effect"
import type { EmbedderApi } from "./embedder.js"
import { EmbedderUnavailable } from "./errors.js"

export const NONE_REASON = "no embedder is configured (MEMLEDGER_EMBEDDER=none): keyword search only"

export const makeNoneEmbedder = (): EmbedderApi => ({
  provider: "none",
  model: "none",
  dimensions: 0,
  embed: () => Effect.fail(new EmbedderUnavailable({ provider: "none", reason: NONE_REASON }))
})
