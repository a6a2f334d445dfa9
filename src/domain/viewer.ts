/**
 * Who reads, for private memories (docs/serve.md, "People and tokens"): a person's name, whose
 * private memories they see besides every shared one; or null, no name (the store's own command
 * line, a hook, a server without tokens), which sees the shared memories only. Nobody reads
 * another person's private memory through memledger; whoever can read the store's file or
 * database directly reads everything (docs/privacy.md).
 */
export type Viewer = string | null

/** Whether `viewer` may see a memory private to `privateTo` (null: shared). */
export const canSee = (viewer: Viewer, privateTo: string | null): boolean => privateTo === null || privateTo === viewer
