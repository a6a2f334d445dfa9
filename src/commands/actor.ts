/** Who is writing: the conversation an event comes from and the client that sent it. */
import { Either } from "effect"
import { InvalidInput, SecretInIdentity } from "../domain/errors.js"
import { MAX_AGENT_LENGTH, MAX_ORIGIN_LENGTH } from "../domain/vocabulary.js"
import type { Person } from "../domain/person.js"
import { AGENT_TOKEN_WRITER, CLI_WRITER, isPerson } from "../domain/vouching.js"
import { secretInName } from "../privacy/secret-in-name.js"

export interface Actor {
  readonly origin: string
  readonly agent: string
  /** The person whose token writes (domain/person.ts): every event appended records it. */
  readonly author?: string
}

/**
 * Who writes through `person`'s token (none: the store's own command line, a hook, a server
 * without tokens): the name is the author of every event; an agent's token never passes for a
 * person, however it names itself (domain/vouching.ts).
 */
export const actorThrough = (origin: string, agent: string, person: Person | undefined): Actor => {
  if (person === undefined) return { origin, agent }
  return { origin, agent: person.agent && isPerson(origin, agent) ? AGENT_TOKEN_WRITER : agent, author: person.name }
}

/** The command line with no --origin or --agent: a person, for the rules (domain/vouching.ts). */
export const CLI_ACTOR: Actor = { origin: CLI_WRITER, agent: CLI_WRITER }

/**
 * Why `value` cannot be an origin (or an agent), or undefined: the rule of the event envelope
 * (vocabulary.ts `Origin`, `Agent`, lengths in UTF-16 units as the envelope counts them),
 * checked before anything is decided, so a bad one is bad input and never a failed append.
 */
export const originProblem = (value: string): string | undefined => lengthProblem(value, MAX_ORIGIN_LENGTH)
export const agentProblem = (value: string): string | undefined => lengthProblem(value, MAX_AGENT_LENGTH)

/** How the writer named the two fields: "origin" and "agent", or the CLI's "--origin" and "--agent". */
export interface ActorNames {
  readonly origin: string
  readonly agent: string
}

/**
 * The actor, or the error naming the field that breaks the rule: InvalidInput for its length,
 * SecretInIdentity for a secret in it (privacy/secret-in-name.ts). Every write path checks
 * through here.
 */
export const checkActor = (
  actor: Actor,
  names: ActorNames = { origin: "origin", agent: "agent" }
): Either.Either<Actor, InvalidInput | SecretInIdentity> => {
  const origin = originProblem(actor.origin)
  if (origin !== undefined) return Either.left(new InvalidInput({ message: `${names.origin} ${origin}` }))
  const agent = agentProblem(actor.agent)
  if (agent !== undefined) return Either.left(new InvalidInput({ message: `${names.agent} ${agent}` }))
  const secret = identitySecret(names.origin, actor.origin) ?? identitySecret(names.agent, actor.agent)
  return secret === undefined ? Either.right(actor) : Either.left(secret)
}

/** SecretInIdentity naming `field` when `value` holds a secret; undefined when it holds none. */
export const identitySecret = (field: string, value: string): SecretInIdentity | undefined => {
  const kind = secretInName(value)
  return kind === undefined ? undefined : new SecretInIdentity({ field, kind })
}

const lengthProblem = (value: string, max: number): string | undefined =>
  value.length === 0 ? "cannot be empty" : value.length > max ? `is ${value.length} characters; the limit is ${max}` : undefined
