/**
 * The `People` service: tokens for `mem serve`, each naming a person (docs/serve.md, "People and
 * tokens"). `add` makes a token and shows it once; the store keeps its hash only (store/tokens.ts).
 * A name may hold several tokens; `revoke` withdraws them all. `verify` says whose a token a
 * client offers is, which the server asks on every request, so a revoked token is refused from
 * the next request on, by every server on the store.
 */
import { Clock, Context, Effect, Layer, Schema } from "effect"
import { InvalidInput } from "../domain/errors.js"
import { OWNER_NAME, type Person } from "../domain/person.js"
import { personNameProblem } from "../domain/vocabulary.js"
import { hashToken, newToken, personOf } from "../people/tokens.js"
import { Tokens } from "../store/tokens.js"

export interface TokenFlags {
  readonly admin: boolean
  readonly agent: boolean
}

/** A token as `list` shows it: never the token, nor its hash. */
export interface TokenListing extends TokenFlags {
  readonly name: string
  readonly createdAt: string
}

/** A token just made: the only time the token itself is shown. */
export interface NewToken extends TokenListing {
  readonly token: string
}

/** `revoke` of a name that holds no token. */
export class NoTokenNamed extends Schema.TaggedError<NoTokenNamed>()("NoTokenNamed", { name: Schema.String }) {
  override get message() {
    return `no token is named ${this.name}; 'mem token list' names them`
  }
}

export interface PeopleApi {
  readonly add: (name: string, flags: TokenFlags) => Effect.Effect<NewToken, InvalidInput>
  readonly list: Effect.Effect<ReadonlyArray<TokenListing>>
  /** Withdraws every token of `name`. */
  readonly revoke: (name: string) => Effect.Effect<{ readonly name: string; readonly revoked: number }, NoTokenNamed>
  /** Whose token this is, or undefined: unknown, or revoked. */
  readonly verify: (token: string) => Effect.Effect<Person | undefined>
  /** Whether the store holds any token: a server on such a store asks every caller for one. */
  readonly any: Effect.Effect<boolean>
}

export class People extends Context.Tag("memledger/People")<People, PeopleApi>() {}

export const makePeople: Effect.Effect<PeopleApi, never, Tokens> = Effect.map(Tokens, (tokens): PeopleApi => ({
  add: (name, flags) =>
    Effect.gen(function* () {
      const problem = personNameProblem(name)
      if (problem !== undefined) return yield* Effect.fail(new InvalidInput({ message: problem }))
      if (name === OWNER_NAME) {
        return yield* Effect.fail(new InvalidInput({ message: `${OWNER_NAME} is the name of the server's own token (MEMLEDGER_TOKEN); choose another` }))
      }
      const token = newToken()
      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* tokens.add({ hash: hashToken(token), name, admin: flags.admin, agent: flags.agent, createdAt })
      return { name, admin: flags.admin, agent: flags.agent, createdAt, token }
    }),
  list: Effect.map(tokens.list, (rows) => rows.map(({ name, admin, agent, createdAt }) => ({ name, admin, agent, createdAt }))),
  revoke: (name) =>
    Effect.flatMap(tokens.revoke(name), (revoked) => (revoked === 0 ? Effect.fail(new NoTokenNamed({ name })) : Effect.succeed({ name, revoked }))),
  verify: (token) => Effect.map(tokens.list, (rows) => personOf(token, rows)),
  any: Effect.map(tokens.list, (rows) => rows.length > 0)
}))

export const PeopleLive = Layer.effect(People, makePeople)
