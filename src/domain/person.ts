/**
 * Who calls through a token of `mem serve` (docs/serve.md, "People and tokens"): the token's
 * name, which every event it writes records as its author and which private memories are
 * private to, and what the token may do. A call without a token (the command line on the
 * store itself, the hooks, a server without tokens) has no person.
 */
export interface Person {
  readonly name: string
  /** May forget and purge other people's conversations. */
  readonly admin: boolean
  /** An agent's token: what it writes never counts as a person's word for the rules (vouching.ts). */
  readonly agent: boolean
}

/**
 * The name of the server's own token (MEMLEDGER_TOKEN or ~/.memledger/token): it acts as an
 * admin person of this name, so it is not given to a token of the store.
 */
export const OWNER_NAME = "owner"

export const OWNER: Person = { name: OWNER_NAME, admin: true, agent: false }
