/**
 * Where a memory is searched from, as index tokens: one for its place (global or its project,
 * live or not, shared or private to one person) and one for its category. Each keyword index
 * files a memory's words under these, so a search says "these words, in this scope, that this
 * reader may see" to the index itself, and another person's private memories never take a
 * candidate's place. The tokens are never produced by a query's words (they end in a digit
 * after letters no word starts with this way, and the stemmer leaves them whole).
 */
import { createHash } from "node:crypto"
import type { Viewer } from "../domain/viewer.js"

/** Where a memory is searched from: its project (null = global), whether it takes part in recall, and whose it is. */
export interface ScopeKey {
  readonly project: string | null
  readonly live: boolean
  /** The person it is private to; absent or null when shared (every memory before privacy). */
  readonly owner?: string | null
}

const hashes = new Map<string, string>()

/** 64 bits of SHA-1: project names hold any characters, a token only letters and digits. */
const hashOf = (text: string): string => {
  let hash = hashes.get(text)
  if (hash === undefined) {
    hash = createHash("sha1").update(text).digest("hex").slice(0, 16)
    hashes.set(text, hash)
  }
  return hash
}

/** A shared memory's token is what it was before privacy existed, so an older index stays valid. */
export const placeToken = ({ project, live, owner }: ScopeKey): string =>
  `z${live ? "l" : "d"}${project === null ? "g" : `p${hashOf(project)}`}${owner === undefined || owner === null ? "" : `o${hashOf(owner)}`}0`

export const categoryToken = (category: string): string => `zc${hashOf(category)}0`

/** The `scope` column's text for one memory. */
export const scopeColumn = (key: ScopeKey, category: string): string => `${placeToken(key)} ${categoryToken(category)}`

/**
 * The place tokens searched from `project` by `viewer`: global memories and, with a project, that
 * project's; shared ones, and with a name, those private to it.
 */
export const placeTokensOf = (project: string | null, live: boolean, viewer: Viewer = null): string[] => {
  const owners = viewer === null ? [null] : [null, viewer]
  const projects = project === null ? [null] : [null, project]
  return projects.flatMap((p) => owners.map((owner) => placeToken({ project: p, live, owner })))
}
