/**
 * Runs one decision inside an open write transaction: decide on the current state, then stamp
 * and append the events. Shared by single commands and by bulk import (many per transaction).
 * The actor is checked first, so an empty or oversized origin or agent, from any surface, is
 * InvalidInput before anything is decided or appended.
 */
import { Either } from "effect"
import type { DomainError } from "../domain/errors.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import type { WriteUnit } from "../store/event-log.js"
import { checkActor, type Actor } from "./actor.js"
import type { Decision, DecisionState } from "./state.js"

export interface DecideContext {
  readonly reads: LedgerReads
  readonly state: DecisionState
  readonly newId: () => string
}

export const executeIn = <R>(
  tx: WriteUnit,
  actor: Actor,
  nowMs: number,
  makeId: (timeMs: number) => string,
  decide: (ctx: DecideContext) => Either.Either<Decision<R>, DomainError>
): Either.Either<R, DomainError> => {
  const checked = checkActor(actor)
  if (Either.isLeft(checked)) return Either.left(checked.left)
  const decision = decide({ reads: tx.reads, state: tx.state, newId: () => makeId(nowMs) })
  if (Either.isRight(decision) && decision.right.events.length > 0) {
    const recordedAt = new Date(nowMs).toISOString()
    tx.append(decision.right.events.map((event) => ({ id: makeId(nowMs), recordedAt, ...actor, event })))
  }
  return Either.map(decision, (d) => d.result)
}
