/**
 * Text that reads like orders to an agent rather than knowledge about a project: the shapes of
 * prompt injection. A memory is quoted data; one that tries to steer the agent reading it
 * ("ignore previous instructions", a forged `system:` turn) is stored tentative and never
 * injected as a rule. Detection only flags: the text is stored as written, so a false alarm
 * costs a rule slot, never the memory.
 */

interface Sign {
  readonly pattern: RegExp
  readonly reason: string | ((match: RegExpExecArray) => string)
}

const SIGNS: ReadonlyArray<Sign> = [
  {
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|every|each|the|your|of|my|these|those)\s+)*(?:previous|prior|above|earlier|preceding|former|original|initial|system|developer)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages|context|commands)\b/i,
    reason: "asks to ignore earlier instructions"
  },
  {
    pattern: /\b(?:new|updated|real|actual|secret|hidden)\s+instructions?\s*:/i,
    reason: "announces new instructions"
  },
  {
    pattern: /\byou\s+are\s+(?:now|no\s+longer)\b/i,
    reason: "tells the agent who it is now ('you are now …')"
  },
  {
    pattern: /\b(?:from\s+now\s+on|henceforth)\s*,?\s+(?:you|the\s+(?:agent|assistant|model))\s+(?:are|will|must|shall)\b/i,
    reason: "redefines the agent's behaviour from now on"
  },
  {
    pattern: /\b(?:pretend\s+(?:to\s+be|you\s+are)|roleplay\s+as|jailbreak|developer\s+mode|DAN\s+mode)\b/i,
    reason: "asks the agent to take on another role"
  },
  { pattern: /\bsystem\s+prompt\b/i, reason: "talks about the system prompt" },
  {
    pattern: /\b(?:do\s+not|don't|never)\s+(?:tell|inform|alert|mention\s+(?:this\s+)?to)\s+the\s+user\b/i,
    reason: "asks to hide something from the user"
  },
  {
    pattern: /^[ \t>]*(?:system|assistant|developer|human)\s*:/im,
    reason: (m) => `a chat role marker at the start of a line ('${m[0].trim()}')`
  },
  { pattern: /<\|[a-z_]+\|>/i, reason: (m) => `a chat template token ('${m[0]}')` },
  { pattern: /\[\/?INST\]|<<\/?SYS>>/, reason: (m) => `an instruction template marker ('${m[0]}')` },
  {
    pattern: /^[ \t]*#{1,6}[ \t]*(?:system|instructions?|response)\b/im,
    reason: (m) => `an instruction header ('${m[0].trim()}')`
  },
  { pattern: /<\/?(?:system|instructions?)>/i, reason: (m) => `an instruction tag ('${m[0]}')` }
]

/** Why `text` reads like instructions to an agent; empty when it does not. */
export const instructionLikeReasons = (text: string): string[] =>
  // Most texts hold none of the words a sign needs: one search says so, where the twelve signs
  // searched the text twelve times (a third of the scan's time).
  MAY_BE_A_SIGN.test(text) ? everyInstructionLikeReason(text) : []

/** instructionLikeReasons without its shortcut (a property test compares the two). */
export const everyInstructionLikeReason = (text: string): string[] =>
  SIGNS.flatMap(({ pattern, reason }) => {
    const match = pattern.exec(text)
    if (match === null) return []
    return [typeof reason === "string" ? reason : reason(match)]
  })

/**
 * Found, case folded, in every text a sign matches: for each sign, the words it cannot match
 * without (`you are`, `the user`, `system`, …). Not only in those: it only rules texts out.
 */
const MAY_BE_A_SIGN =
  /ignore|disregard|forget|override|bypass|skip|instruction|you\s+are|now\s+on|henceforth|pretend|roleplay|jailbreak|developer|dan\s+mode|system|the\s+user|assistant|human|response|<\||inst\]|sys>>/i
