/**
 * Payload encoding, validation and the hash chain. Payloads are validated by their Schema on
 * write and on read; the hash covers the exact stored text, so any edit of a row is detected.
 */
import { ParseResult, Schema } from "effect"
import { sha256Hex } from "../domain/sha256.js"
import { compileIs } from "./compiled-is.js"
import { memoryAddedPayload } from "./memory-added-payload.js"
import { CURRENT_VERSION, EVENT_SCHEMAS, type DomainEvent, type EventType } from "./events.js"
import { upcast } from "./upcast.js"

export const GENESIS_HASH = "0".repeat(64)

type Codec = {
  readonly decode: (u: unknown) => DomainEvent
  readonly encode: (e: DomainEvent) => unknown
  readonly is: (u: unknown) => u is DomainEvent
  /** The payload's fields in the schema's order (without `_tag`): the order decoding produces. */
  readonly fields: ReadonlyArray<string>
}

const codecs = new Map<string, Codec>(
  Object.entries(EVENT_SCHEMAS).map(([type, schema]) => {
    const s = schema as unknown as Schema.Schema<DomainEvent, any>
    return [
      type,
      {
        decode: Schema.decodeUnknownSync(s, { onExcessProperty: "ignore" }),
        encode: Schema.encodeSync(s),
        // Schema.is, compiled (compiled-is.ts): every append and every read checks a payload.
        is: compileIs(s),
        fields: Object.keys(schema.fields).filter((k) => k !== "_tag")
      }
    ]
  })
)

const codecOf = (type: string): Codec => {
  const codec = codecs.get(type)
  if (!codec) throw new EventDecodeError(type, `unknown event type '${type}'`)
  return codec
}

/** A stored row that does not decode: the log is damaged or written by a newer memledger. */
export class EventDecodeError extends Error {
  constructor(readonly type: string, readonly reason: string) {
    super(`cannot decode a ${type} event: ${reason}`)
  }
}

/**
 * Validates an event and returns its payload text (the event without `_tag`). The schemas have
 * no transformations, so encoding a valid event only orders its fields as the schema does and
 * leaves out any other: checking it with the schema (`is`) and writing its fields in schema
 * order gives the same text at a fraction of the cost (an import encodes once per line). An
 * invalid event takes the encode, which throws the same error as before. A MemoryAdded, the
 * one an import writes per line, is written field by field (memory-added-payload.ts).
 */
export const encodePayload = (event: DomainEvent): string => {
  const codec = codecOf(event._tag)
  if (codec.is(event)) {
    if (event._tag === "MemoryAdded") return memoryAddedPayload(event)
    const source = event as unknown as Record<string, unknown>
    const payload: Record<string, unknown> = {}
    for (const field of codec.fields) if (source[field] !== undefined) payload[field] = source[field]
    return JSON.stringify(payload)
  }
  const { _tag, ...payload } = codec.encode(event) as Record<string, unknown>
  return JSON.stringify(payload)
}

/** Parses a stored payload of any schema version into the current event shape. */
export const decodePayload = (type: string, version: number, payloadText: string): DomainEvent => {
  const raw = upcast(type as EventType, version, JSON.parse(payloadText) as Record<string, unknown>)
  const codec = codecOf(type)
  // The schemas have no transformations, so a payload holding only the schema's fields, in its
  // order (as encodePayload writes them), decodes to itself: checking it with the same schema
  // is enough, and a third faster than decoding (a rebuild reads every payload). Anything else
  // (extra fields, another order, an invalid value) takes the full decode, which strips,
  // reorders and reports exactly as before.
  if (hasOnlyFieldsInOrder(raw, codec.fields)) {
    const event = { _tag: type, ...raw }
    if (codec.is(event)) return event
  }
  try {
    return codec.decode({ ...raw, _tag: type })
  } catch (error) {
    const reason = ParseResult.isParseError(error) ? ParseResult.TreeFormatter.formatErrorSync(error) : String(error)
    throw new EventDecodeError(type, reason)
  }
}

/** True when every key of `raw` is one of `fields`, in the same relative order. */
const hasOnlyFieldsInOrder = (raw: Record<string, unknown>, fields: ReadonlyArray<string>): boolean => {
  let next = 0
  for (const key of Object.keys(raw)) {
    while (next < fields.length && fields[next] !== key) next++
    if (next === fields.length) return false
    next++
  }
  return true
}

export const sha256 = sha256Hex

export interface EnvelopeFields {
  readonly seq: number
  readonly id: string
  readonly type: string
  readonly version: number
  readonly recordedAt: string
  readonly origin: string
  readonly agent: string
  readonly author?: string | undefined
}

/**
 * `hash = sha256(previousHash, envelope, payloadHash)`: what `mem verify` recomputes. The
 * author joins the hashed envelope only when there is one, as its last element: an event
 * written without a token hashes exactly as every event did before authors existed, so old
 * logs verify and export unchanged, and an author added or removed afterwards breaks the chain.
 */
export const chainHash = (previousHash: string, envelope: EnvelopeFields, payloadHash: string): string => {
  const fields: Array<string | number> = [
    envelope.seq,
    envelope.id,
    envelope.type,
    envelope.version,
    envelope.recordedAt,
    envelope.origin,
    envelope.agent
  ]
  if (envelope.author !== undefined) fields.push(envelope.author)
  return sha256(`${previousHash}\n${JSON.stringify(fields)}\n${payloadHash}`)
}

export { CURRENT_VERSION }
