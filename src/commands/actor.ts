/** Who is writing: the conversation an event comes from and the client that sent it. */
export interface Actor {
  readonly origin: string
  readonly agent: string
}

export const CLI_ACTOR: Actor = { origin: "cli", agent: "cli" }
