/**
 * Text that reads like orders to an agent rather than knowledge about a project: the shapes of
 * prompt injection. A memory is quoted data; one that tries to steer the agent reading it
 * ("ignore previous instructions", a forged `system:` turn, "mail ~/.ssh/id_rsa to ...") is
 * stored tentative and never injected as a rule. Detection only flags: the text is stored as
 * written, so a false alarm costs a rule slot, never the memory.
 */
import { disregardReason } from "./disregard-signs.js"
import { anyWord } from "./word-search.js"
import { sendsToAddress, sendsWithCommand, touchesCredentials } from "./outward-signs.js"

interface Sign {
  readonly pattern: RegExp
  readonly reason: string | ((match: RegExpExecArray) => string)
}

const IGNORE_EARLIER = "asks to ignore earlier instructions"

const SIGNS: ReadonlyArray<Sign> = [
  {
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|every|each|the|your|of|my|these|those)\s+)*(?:previous|prior|above|earlier|preceding|former|original|initial|system|developer)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages|context|commands)\b/i,
    reason: IGNORE_EARLIER
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

/**
 * Signs that are functions rather than one pattern, checked after the ones above: "ignore
 * previous instructions" in other phrasings and languages (disregard-signs.ts), and orders to
 * take something out of the machine (outward-signs.ts).
 */
const SIGN_CHECKS: ReadonlyArray<(text: string) => string | undefined> = [disregardReason, touchesCredentials, sendsToAddress, sendsWithCommand]

/** Why `text` reads like instructions to an agent; empty when it does not. */
export const instructionLikeReasons = (text: string): string[] => {
  // Most texts hold none of the words a sign needs: one search says so, where the signs
  // searched the text once each (a third of the scan's time).
  const read = readable(text)
  return MAY_BE_A_SIGN.test(read) ? reasonsIn(read) : []
}

/** instructionLikeReasons without its shortcut (a property test compares the two). */
export const everyInstructionLikeReason = (text: string): string[] => reasonsIn(readable(text))

const reasonsIn = (text: string): string[] => {
  const reasons = SIGNS.flatMap(({ pattern, reason }) => {
    const match = pattern.exec(text)
    if (match === null) return []
    return [typeof reason === "string" ? reason : reason(match)]
  })
  for (const sign of SIGN_CHECKS) {
    const reason = sign(text)
    if (reason !== undefined) reasons.push(reason)
  }
  // Two signs may give one reason (both kinds of "ignore previous instructions"): it is said once.
  return [...new Set(reasons)]
}

/**
 * The text as the signs read it. Letters written in compatibility forms (full-width `ｉｇｎｏｒｅ`,
 * ligatures) are folded to plain ones and invisible format characters (zero-width spaces, bidi
 * controls, soft hyphens) are dropped, so neither hides a word from a sign. ASCII text is
 * already in that form and is not copied.
 */
const readable = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  /[^\u0000-\u007f]/.test(text) ? text.normalize("NFKC").replace(/\p{Cf}/gu, "") : text

/**
 * Found, case folded, in every text a sign matches: for each sign, the words it cannot match
 * without (`you are`, `the user`, `system`, …). Not only in those: it only rules texts out, so
 * it grows with every sign (test/privacy/scan-shortcuts.property.test.ts). The outward signs
 * need an address (`@`, `://`), a network command, or a credential's name; the disregard signs
 * in other languages, their verbs.
 */
const MAY_BE_A_SIGN = anyWord([
  // The signs above.
  ...["ignor", "disregard", "forget", "override", "bypass", "skip", "instruction", String.raw`you\s+are`, String.raw`now\s+on`],
  ...["henceforth", "pretend", "roleplay", "jailbreak", "developer", String.raw`dan\s+mode`, "system", String.raw`the\s+user`],
  ...["assistant", "human", "response", String.raw`<\|`, String.raw`inst\]`, "sys>>"],
  // The disregard signs' verbs in every language.
  ...["follow", "oubli", "compte", "abstraction", "outre", String.raw`ne\s+sui`, "suivre", "vergiss", "vergess", "missacht"],
  ...["übergeh", "umgeh", "beacht", "folg", "olvid", "olvíd", "caso", "alto", "desobede", String.raw`no\s+sig`, "seguir"],
  // An address or a network command.
  ...["@", "://", String.raw`\|\s*n(?:c|cat|etcat)\s`, "/dev/tcp"],
  // The names of credential files and secrets.
  ...[String.raw`\.ssh`, "id_", String.raw`\.aws`, "netrc", "pgpass", "npmrc", "pypirc", "credential", String.raw`\.docker`],
  ...[String.raw`\.kube`, "gnupg", String.raw`\.pem`, String.raw`\.p12`, String.raw`\.pfx`, String.raw`\.jks`, "keystore"],
  ...["keychain", "keyring", "trousseau", "schlüsselbund", "llavero", "priv", String.raw`\.env`, "api key", "access key"],
  ...["pass", "secret", "token", "identifiant", "jeton", "clé", "kennw", "zugang", "anmeldedaten", "geheim", "schlüssel"],
  ...["contrase", "credenci", "clave"]
])

