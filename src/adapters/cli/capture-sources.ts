/**
 * Where captured memories came from, for `mem show` and `mem why`: the `capture` of each
 * MemoryAdded or MemoryConfirmed in a memory's history (events/capture.ts), read through the
 * `log` operation, so it works against a shared server as against a file. The evidence is shown
 * as stored: redacted when it was written.
 */
import { Effect, Option, Schema } from "effect"
import { callOperation } from "../../api/call-operation.js"
import type { Operations } from "../../api/operations.js"
import { Capture } from "../../events/capture.js"
import { callerOf } from "./root.js"

export interface CaptureSource extends Capture {
  /** The conversation that gave it. */
  readonly origin: string
  readonly recordedAt: string
}

const decodeCapture = Schema.decodeUnknownOption(Capture)

/** Each memory's capture sources, oldest first; a memory whose history cannot be read shows none. */
export const captureSourcesOf = (ids: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, ReadonlyArray<CaptureSource>>, never, Operations> =>
  Effect.map(
    Effect.forEach(ids, (id) =>
      callOperation("log", { memory: id, limit: 100 }, callerOf()).pipe(
        Effect.map(({ events }): readonly [string, ReadonlyArray<CaptureSource>] => [id, events.flatMap(sourceOf)]),
        Effect.orElseSucceed((): readonly [string, ReadonlyArray<CaptureSource>] => [id, []])
      )
    ),
    (entries) => new Map(entries)
  )

const sourceOf = (e: { type: string; origin: string; recordedAt: string; payload: Record<string, unknown> | null }): CaptureSource[] => {
  if (e.type !== "MemoryAdded" && e.type !== "MemoryConfirmed") return []
  const capture = decodeCapture(e.payload?.capture)
  return Option.isSome(capture) ? [{ ...capture.value, origin: e.origin, recordedAt: e.recordedAt }] : []
}

/** The sources as text, each line indented by `indent`. */
export const sourceLines = (sources: ReadonlyArray<CaptureSource>, indent: string): string[] =>
  sources.flatMap((s) => [
    `${indent}captured from ${WHAT[s.kind]} in ${s.origin} (${s.recordedAt})${s.from === undefined ? "" : `, ${s.from}`}:`,
    ...s.evidence.split("\n").map((line) => `${indent}  > ${line}`)
  ])

const WHAT: Record<Capture["kind"], string> = {
  "prompt-rule": "a prompt",
  "command-pair": "a failed command and its correction",
  "repeated-test": "a repeated test command",
  "transcript-part": "a transcript part a language model read"
}
