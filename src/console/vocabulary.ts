/**
 * The words the console offers in its menus. Written out here rather than imported from
 * src/domain, whose schemas would bring Effect into the page's script; a test checks that they
 * are the domain's own (test/console/vocabulary.test.ts).
 */
export const CATEGORIES = ["architecture", "convention", "decision", "pattern", "gotcha", "workaround", "troubleshooting", "command", "preference", "general"] as const
export const STATUSES = ["confirmed", "tentative"] as const
export const OUTCOMES = ["worked", "failed", "partial"] as const
export const EVENT_TYPES = [
  "MemoryAdded",
  "MemoryRevised",
  "MemoryConfirmed",
  "MemorySuperseded",
  "MemoriesMarkedDistinct",
  "OutcomeRecorded",
  "MemoriesRecalled",
  "MemoryForgotten",
  "MemoryRestored",
  "CueDropped",
  "ConversationForgotten",
  "ConversationRestored"
] as const
