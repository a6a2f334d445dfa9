/**
 * Decoding an operation's input at an edge (CLI, SDK, remote client) with its Effect Schema,
 * failing with the same domain error the store would give: a bad content is `InvalidContent`,
 * a bad id `InvalidId`, an unknown category `UnknownCategory`, anything else `InvalidInput`
 * naming the field. So a caller sees one tag for one mistake, whichever side caught it.
 */
import { Either, ParseResult, Schema } from "effect"
import { InvalidContent, InvalidId, InvalidInput, UnknownCategory } from "../domain/errors.js"
import { nestsDeeperThan, TOO_DEEP_MESSAGE } from "./json-depth.js"

export type InputError = InvalidContent | InvalidId | InvalidInput | UnknownCategory

/** The fields whose schema is `TypedId` (memory_ids holds several). */
const ID_FIELDS = new Set(["id", "memory_id", "memory_ids", "confirms", "supersedes", "distinct_from", "by", "memory"])

/** A schema issue as ArrayFormatter gives it (and as HttpApi's decode errors carry it, as JSON). */
export interface InputIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

export const decodeInput = <A, I>(schema: Schema.Schema<A, I>, input: unknown): Either.Either<A, InputError> =>
  // The decoder and its error formatter recurse into the value (json-depth.ts says why).
  nestsDeeperThan(input) ? Either.left(new InvalidInput({ message: TOO_DEEP_MESSAGE })) : Either.mapLeft(Schema.decodeUnknownEither(schema)(input), (error) => inputErrorOf(ParseResult.ArrayFormatter.formatErrorSync(error), input))

/** The domain error for the first of `issues` found decoding `input`; the REST server maps its decode failures with it too. */
export const inputErrorOf = (issues: ReadonlyArray<InputIssue>, input: unknown): InputError => {
  const [first] = issues
  if (first === undefined || first.path.length === 0) return new InvalidInput({ message: "the input must be an object of named fields" })
  const field = String(first.path[0])
  const value = valueAt(input, first.path)
  const message = clipActual(first.message)
  if (field === "content") return new InvalidContent({ reason: message })
  if (field === "category" && typeof value === "string") return new UnknownCategory({ category: clipActual(value) })
  if (ID_FIELDS.has(field) && typeof value === "string") return new InvalidId({ id: clipActual(value), reason: message })
  return new InvalidInput({ message: `${first.path.join(".")}: ${message}` })
}

/** How much of a refused value an error quotes: enough to recognise it. */
const QUOTED_MAX = 80
/** Longer than any message the schemas write about a value of sensible size. */
const MESSAGE_MAX = 600

/**
 * The schema's messages quote the whole value they refused (`actual "..."`): a 20,000-character
 * query came back as a 20 KB error on every surface. The quote is cut to its first characters
 * and the length said instead; any other text is cut at a few hundred characters.
 */
export const clipActual = (message: string): string => {
  const clipped = message.replace(/"((?:[^"\\]|\\.)*)"/g, (quote, inner: string) =>
    inner.length <= QUOTED_MAX ? quote : `"${inner.slice(0, QUOTED_MAX)}…" (${inner.length} characters)`
  )
  return clipped.length <= MESSAGE_MAX ? clipped : `${clipped.slice(0, MESSAGE_MAX)}…`
}

const valueAt = (input: unknown, path: ReadonlyArray<PropertyKey>): unknown =>
  path.reduce<unknown>((value, key) => (typeof value === "object" && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined), input)
