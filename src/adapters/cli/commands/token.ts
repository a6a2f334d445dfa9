/**
 * People's tokens for `mem serve` (docs/serve.md, "People and tokens"): `add` makes one and
 * prints it once, `list` names them (never the token), `revoke` withdraws every token of a name.
 * They work on the store itself, as the maintenance commands do: whoever can open the store
 * file or database manages who may reach it through a server.
 */
import { Args, Command, Options } from "@effect/cli"
import { Effect } from "effect"
import { People, type NewToken, type TokenListing } from "../../../services/people.js"
import { count } from "../format.js"
import * as O from "../options.js"
import { CREATES, withStore } from "../root.js"

const name = Args.text({ name: "name" }).pipe(Args.withDescription("the person's name, recorded as the author of what the token writes"))

export const tokenAdd = Command.make(
  "add",
  {
    name,
    admin: Options.boolean("admin").pipe(Options.withDescription("may forget and purge other people's conversations")),
    agent: Options.boolean("agent").pipe(Options.withDescription("for an agent: what it writes never counts as the person's word for the rules")),
    json: O.json
  },
  (a) =>
    withStore(
      Effect.flatMap(People, (people) => people.add(a.name, { admin: a.admin, agent: a.agent })),
      { json: a.json, human: addedText },
      CREATES
    )
).pipe(Command.withDescription("Make a token for NAME and print it, once: the store keeps only its hash"))

export const tokenList = Command.make("list", { json: O.json }, (a) =>
  withStore(
    Effect.map(
      Effect.flatMap(People, (people) => people.list),
      (tokens) => ({ tokens })
    ),
    { json: a.json, human: ({ tokens }) => listText(tokens) }
  )
).pipe(Command.withDescription("List the tokens: names, flags and when each was made (never the tokens)"))

export const tokenRevoke = Command.make("revoke", { name, json: O.json }, (a) =>
  withStore(
    Effect.flatMap(People, (people) => people.revoke(a.name)),
    { json: a.json, human: (r) => `revoked ${count(r.revoked, "token")} of ${r.name}: a server refuses ${r.revoked === 1 ? "it" : "them"} from the next request on` }
  )
).pipe(Command.withDescription("Revoke every token of NAME"))

export const token = Command.make("token", {}, () =>
  Effect.sync(() => process.stdout.write("mem token add NAME [--admin] [--agent] | mem token list | mem token revoke NAME\n"))
).pipe(Command.withDescription("People's tokens for mem serve: add, list, revoke"), Command.withSubcommands([tokenAdd, tokenList, tokenRevoke]))

const flagsOf = (t: { readonly admin: boolean; readonly agent: boolean }): string =>
  [t.admin ? "admin" : undefined, t.agent ? "agent" : undefined].filter((f) => f !== undefined).join(", ")

const addedText = (t: NewToken): string => {
  const flags = flagsOf(t)
  return [
    `token for ${t.name}${flags === "" ? "" : ` (${flags})`}:`,
    t.token,
    "It is shown this once (the store keeps only its hash): give it to its holder as MEMLEDGER_TOKEN."
  ].join("\n")
}

const listText = (tokens: ReadonlyArray<TokenListing>): string => {
  if (tokens.length === 0) return "no tokens: 'mem token add NAME' makes one"
  const width = Math.max(...tokens.map((t) => t.name.length))
  return tokens.map((t) => `${t.name.padEnd(width)}  ${t.createdAt}  ${flagsOf(t)}`.trimEnd()).join("\n")
}
