/**
 * Who is calling, as an MCP server sees it: the client's name from the initialize handshake is
 * the agent, and `<client name>:<session>` the origin of its writes (a call's own `origin`
 * wins), so `forget_conversation` can withdraw exactly one session's contributions.
 */
import type { Implementation } from "@modelcontextprotocol/sdk/types.js"
import type { Caller } from "../../api/operations.js"
import type { Person } from "../../domain/person.js"

/** What the transport knows about one request, for working out its caller. */
export interface RequestContext {
  /** The Streamable HTTP session id; absent over stdio. */
  readonly sessionId: string | undefined
  /** The HTTP request's headers, names in lower case; absent over stdio. */
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>> | undefined
}

export type CallerFor = (client: Implementation | undefined, request: RequestContext) => Caller

/** A client that sent no usable name is still one agent, named for the protocol. */
const UNNAMED_CLIENT = "mcp"
/** Client names are chosen by clients: long enough to tell them apart, short enough for an origin. */
const MAX_NAME_LENGTH = 100

export const clientName = (client: Implementation | undefined): string => {
  const name = client?.name.trim() ?? ""
  return name.length === 0 ? UNNAMED_CLIENT : name.slice(0, MAX_NAME_LENGTH)
}

export const sessionCaller = (client: Implementation | undefined, session: string, project: string | null, person?: Person): Caller => {
  const agent = clientName(client)
  return { origin: `${agent}:${session}`, agent, project, ...(person === undefined ? {} : { person }) }
}
