/** The projections kept in step with the log, and the version each is built at. */
import type { LedgerConfig } from "../../../config.js"
import { conversationsProjection } from "./conversations.js"
import { countsProjection } from "./counts.js"
import { cuesProjection } from "./cues.js"
import { evidenceProjection } from "./evidence.js"
import { ftsProjection } from "./fts.js"
import { memoriesProjection } from "./memories.js"
import type { Projection } from "./projection.js"

export const PROJECTIONS: ReadonlyArray<Projection> = [
  memoriesProjection,
  evidenceProjection,
  ftsProjection,
  conversationsProjection,
  cuesProjection,
  countsProjection
]

/** Evidence and cues are folded with these settings, so changing one means a rebuild. */
export const versionOf = (p: Projection, config: LedgerConfig): string =>
  p === evidenceProjection
    ? `${p.version}/half-life=${config.halfLifeDays}d/contradiction=${config.contradictionDiscount}`
    : p === cuesProjection
      ? `${p.version}/half-life=${config.halfLifeDays}d/failure=${config.failureWeight}/cap=${config.maxLearnedCues}` +
        `/window=${config.cueWindowRecalls},${config.cueWindowMs}ms`
      : String(p.version)
