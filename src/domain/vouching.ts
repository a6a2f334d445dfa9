/**
 * Who stands behind a memory, as far as the log can tell. A rule shown to every session must
 * be something a person confirmed, or that came up in more than one conversation; what one
 * agent wrote alone is a memory, never a standing order (an agent told to plant one could
 * otherwise steer every later session).
 *
 * Until people have tokens of their own, a person is the command line used without an agent's
 * `--agent` and `--origin`, and the REST API called without the caller headers: the writers
 * whose origin and agent keep their defaults. An agent that runs `mem add` bare passes for a
 * person; the integrations memledger installs always name the agent and its conversation.
 */

/** The origin and agent of the command line, when no --origin or --agent names another. */
export const CLI_WRITER = "cli"
/** The origin and agent of a REST call without the x-memledger-origin and -agent headers. */
export const REST_WRITER = "rest"

export const isPerson = (origin: string, agent: string): boolean =>
  (origin === CLI_WRITER && agent === CLI_WRITER) || (origin === REST_WRITER && agent === REST_WRITER)

/** In how many distinct conversations a memory must be stated to be a rule without a person. */
export const RULE_CONVERSATIONS = 2
