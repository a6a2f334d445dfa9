/**
 * Who stands behind a memory, as far as the log can tell. A rule shown to every session must
 * be something a person confirmed, or that came up in more than one conversation; what one
 * agent wrote alone is a memory, never a standing order (an agent told to plant one could
 * otherwise steer every later session).
 *
 * A person is the command line used without an agent's `--agent` and `--origin`, and the REST
 * API called without the caller headers: the writers whose origin and agent keep their
 * defaults. An agent that runs `mem add` bare passes for a person; the integrations memledger
 * installs always name the agent and its conversation. Through a server's token
 * (docs/serve.md, "People and tokens"), only a person's token can: what a token made with
 * `--agent` writes is recorded under the agent AGENT_TOKEN_WRITER whenever it would otherwise
 * pass for a person (commands/actor.ts `actorThrough`), so the log itself says it was no person.
 */

/** The origin and agent of the command line, when no --origin or --agent names another. */
export const CLI_WRITER = "cli"
/** The origin and agent of a REST call without the x-memledger-origin and -agent headers. */
export const REST_WRITER = "rest"

/** The agent an `--agent` token's writes are recorded under when they name none (or a person's). */
export const AGENT_TOKEN_WRITER = "agent-token"

export const isPerson = (origin: string, agent: string): boolean =>
  (origin === CLI_WRITER && agent === CLI_WRITER) || (origin === REST_WRITER && agent === REST_WRITER)

/** In how many distinct conversations a memory must be stated to be a rule without a person. */
export const RULE_CONVERSATIONS = 2
