/**
 * Ids as people type and read them: any unique prefix of 6 or more characters resolves to the
 * full id; output shows the shortest unique prefix, at least 8 characters.
 */
import { Either } from "effect"
import { AmbiguousId, InvalidId, MemoryNotFound } from "../../../domain/errors.js"
import { ID_PREFIX_MIN, type MemoryId } from "../../../domain/ids.js"
import { shortestUniquePrefix } from "../../read-folds.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"

const PREFIX_CHARS = /^[0-9a-hjkmnp-tv-z]+$/

export const resolveMemoryId = (db: Db, typed: string): Either.Either<MemoryId, InvalidId | MemoryNotFound | AmbiguousId> => {
  const prefix = typed.trim().toLowerCase()
  if (prefix.length < ID_PREFIX_MIN) {
    return Either.left(new InvalidId({ id: typed, reason: `type at least ${ID_PREFIX_MIN} characters` }))
  }
  if (prefix.length > 26 || !PREFIX_CHARS.test(prefix)) {
    return Either.left(new InvalidId({ id: typed, reason: "ids are up to 26 characters of 0-9 and a-z without i, l, o, u" }))
  }
  const rows = statement(db, "SELECT id FROM memories WHERE id >= ? AND id < ? ORDER BY id LIMIT 5").all(
    prefix,
    `${prefix}~`
  ) as { id: MemoryId }[]
  const [first, second] = rows
  if (first === undefined) return Either.left(new MemoryNotFound({ id: typed }))
  if (second !== undefined) {
    return Either.left(new AmbiguousId({ prefix, candidates: rows.map((r) => shortId(db, r.id)) }))
  }
  return Either.right(first.id)
}

/** The shortest prefix of `id` that no other memory shares, and never under 8 characters. */
export const shortId = (db: Db, id: string): string => {
  // Both neighbours in one statement: a search shows ten ids, and each statement run costs
  // about as much as the index lookups inside it.
  const { before, after } = statement(
    db,
    "SELECT (SELECT id FROM memories WHERE id < @id ORDER BY id DESC LIMIT 1) AS before, (SELECT id FROM memories WHERE id > @id ORDER BY id LIMIT 1) AS after"
  ).get({ id }) as { before: string | null; after: string | null }
  return shortestUniquePrefix(id, before, after)
}
