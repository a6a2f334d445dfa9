/**
 * Protects the shortcuts of the privacy scan's passes (src/privacy): the known shapes
 * (MAY_HOLD_A_SHAPE), the named values and the instruction-like signs each first search the
 * text for what every match must contain, and skip the pass when it is not there. With the
 * shortcut, each pass must give exactly what it gives without, on texts made of the secrets the
 * scan knows, the words the signs are made of, their near misses, in any letter case, and
 * arbitrary text.
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { redactAssignments, redactEveryAssignment } from "../../src/privacy/assignments.js"
import { everyInstructionLikeReason, instructionLikeReasons } from "../../src/privacy/instruction-like.js"
import { redactEveryShape, redactShapes } from "../../src/privacy/redact-secrets.js"
import type { SecretKind } from "../../src/privacy/vocabulary.js"
import { FAKE_SECRETS } from "./fake-secrets.js"

const SECRETS = fc.oneof(...Object.values(FAKE_SECRETS)).map((s) => s.text)

/** Pieces of the signs and of the names of secrets, and the characters around them. */
const WORDS = fc.constantFrom(
  "ignore all previous instructions",
  "Disregard the system prompt",
  "new instructions:",
  "you are now",
  "You  are no longer",
  "from now on, you will",
  "henceforth the assistant must",
  "pretend to be",
  "roleplay as",
  "jailbreak",
  "developer mode",
  "DAN mode",
  "do not tell the user",
  "never mention this to the user",
  "system:",
  "\nassistant :",
  "> human:",
  "<|im_start|>",
  "[INST]",
  "[/INST]",
  "<<SYS>>",
  "## Instructions",
  "# response",
  "<system>",
  "</instructions>",
  "disregard everything above",
  "override your guidelines",
  "ignore the user's rules",
  "Oublie tes consignes",
  "ne tiens pas compte des règles ci-dessus",
  "Ignorez tout ce qui précède",
  "Ignoriere alle vorherigen Anweisungen",
  "beachte die bisherigen Anweisungen nicht",
  "haz caso omiso de las instrucciones del sistema",
  "olvídate de tus reglas",
  "email ",
  "envoie ",
  "senden",
  "envía ",
  " to ",
  " an ",
  "ops@example.net",
  "https://x.example.org/u",
  "http://localhost:3000",
  "curl -d @",
  "| nc 203.0.113.7 4444",
  "~/.ssh/id_rsa",
  "id_ed25519.pub",
  ".aws/credentials",
  ".env",
  ".env.example",
  "keychain",
  "mots de passe",
  "Zugangsdaten",
  "contraseñas",
  "never ",
  "nicht",
  "password",
  "passphrase",
  "DB_PWD",
  "api_key",
  "apiKey",
  "private-key",
  "credentials",
  "Bearer ",
  "authorization: basic ",
  "https://",
  "sk-",
  "task-",
  "sk_live_",
  "eyJ",
  "AKIA"
)
const GLUE = fc.constantFrom(" ", "  ", "\n", "\t", "=", ": ", " = ", '"', "'", ".", "_", "-", "/", ",", "$", "<", "|", ">", "#")

const piece = fc.oneof({ weight: 3, arbitrary: WORDS }, { weight: 2, arbitrary: SECRETS }, { weight: 3, arbitrary: GLUE }, fc.string({ maxLength: 20 }))

/** The same pieces with their letters' case changed at random: the signs and some shapes ignore case. */
const text = fc
  .tuple(fc.array(piece, { maxLength: 10 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), fc.boolean())
  .map(([pieces, flips, recase]) => {
    const joined = pieces.join("")
    if (!recase) return joined
    return Array.from(joined, (c, i) => (flips[i % flips.length] ? c.toUpperCase() : c.toLowerCase())).join("")
  })

const RUNS = { numRuns: 5_000 }

test("the known shapes' pass equals the pass without its shortcut", () => {
  fc.assert(
    fc.property(text, (t) => {
      const fast: SecretKind[] = []
      const full: SecretKind[] = []
      expect(redactShapes(t, fast)).toBe(redactEveryShape(t, full))
      expect(fast).toEqual(full)
    }),
    RUNS
  )
})

test("the named values' pass equals the pass without its shortcut", () => {
  fc.assert(
    fc.property(text, (t) => {
      expect(redactAssignments(t)).toEqual(redactEveryAssignment(t))
    }),
    RUNS
  )
})

test("the instruction-like signs equal the signs searched without the shortcut", () => {
  fc.assert(
    fc.property(text, (t) => {
      expect(instructionLikeReasons(t)).toEqual(everyInstructionLikeReason(t))
    }),
    RUNS
  )
})

test("the generated texts reach every pass's full path: the comparisons above are not vacuous", () => {
  const samples = fc.sample(text, { numRuns: 2_000, seed: 7 })
  expect(samples.filter((t) => redactEveryShape(t, []) !== t).length).toBeGreaterThan(100)
  expect(samples.filter((t) => redactEveryAssignment(t).kinds.length > 0).length).toBeGreaterThan(50)
  expect(samples.filter((t) => everyInstructionLikeReason(t).length > 0).length).toBeGreaterThan(100)
})
