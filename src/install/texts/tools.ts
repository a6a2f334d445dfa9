/**
 * The memledger MCP tools that the texts installed for agents name. One place, so the texts
 * follow the MCP server's tool contract if a name changes.
 */
export const TOOL = {
  remember: "remember",
  recall: "recall",
  explain: "explain",
  recordOutcome: "record_outcome",
  forget: "forget",
  forgetConversation: "forget_conversation"
} as const

/** The line that marks a file as memledger's, so uninstall can tell it from the user's. */
export const managedLine = (target: string): string =>
  `<!-- memledger-managed: written by 'mem install ${target}'; 'mem uninstall ${target}' removes it -->`
