/**
 * People's tokens for `mem serve`, as a port: each store keeps them in a small table of its
 * own, beside the log and never in it, so that servers sharing one database share the tokens,
 * and an export (or a replay elsewhere) carries no secret's hash. Only SHA-256 hashes of the
 * tokens are kept; the token itself is shown once, when it is made (people/tokens.ts).
 */
import { Context, type Effect } from "effect"

export interface TokenRow {
  /** SHA-256 of the token, hex. */
  readonly hash: string
  /** The person's name: every event written through the token records it as its author. */
  readonly name: string
  /** May forget and purge other people's conversations. */
  readonly admin: boolean
  /** Held by an agent: what it writes is never a person's word for the rules (domain/vouching.ts). */
  readonly agent: boolean
  /** When it was made (ISO-8601 UTC). */
  readonly createdAt: string
}

export interface TokensApi {
  readonly add: (row: TokenRow) => Effect.Effect<void>
  /** Every token, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<TokenRow>>
  /** Removes every token of `name`; how many there were. */
  readonly revoke: (name: string) => Effect.Effect<number>
}

export class Tokens extends Context.Tag("memledger/Tokens")<Tokens, TokensApi>() {}
