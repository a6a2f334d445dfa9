/**
 * Replaces every secret found in a text with a placeholder naming its kind. Three passes, most
 * specific first: known shapes (secret-patterns.ts), named values (assignments.ts), then
 * generated-looking tokens (high-entropy.ts). A placeholder matches none of them, so redacting
 * twice changes nothing the second time.
 */
import { redactAssignments } from "./assignments.js"
import { replaceGeneratedTokens } from "./high-entropy.js"
import { MAY_HOLD_A_SHAPE, SECRET_PATTERNS, type SecretPattern } from "./secret-patterns.js"
import { placeholder, type SecretKind } from "./vocabulary.js"

export interface Redacted {
  readonly text: string
  /** One entry per secret replaced, in the order the passes found them. */
  readonly kinds: ReadonlyArray<SecretKind>
}

export const redactSecrets = (text: string): Redacted => {
  const kinds: SecretKind[] = []
  const named = redactAssignments(redactShapes(text, kinds))
  kinds.push(...named.kinds)
  const generated = replaceGeneratedTokens(named.text, placeholder("high-entropy string"))
  for (let i = 0; i < generated.count; i++) kinds.push("high-entropy string")
  return { text: generated.text, kinds }
}

/**
 * The known shapes' pass: each secret found is replaced and its kind pushed onto `kinds`. Most
 * texts hold no shape's prefix or keyword, and one search says so (MAY_HOLD_A_SHAPE), where
 * the fifteen shapes searched the text fifteen times (a third of the scan's time).
 */
export const redactShapes = (text: string, kinds: SecretKind[]): string =>
  MAY_HOLD_A_SHAPE.test(text) ? redactEveryShape(text, kinds) : text

/** redactShapes without its shortcut (a property test compares the two). */
export const redactEveryShape = (text: string, kinds: SecretKind[]): string => {
  let current = text
  for (const pattern of SECRET_PATTERNS) current = applyPattern(current, pattern, kinds)
  return current
}

/**
 * A text the pattern does not match is returned as it is: a search allocates nothing, where a
 * replace with a callback makes a closure and a result per pattern (fifteen per memory).
 * Replacing from the start after a search is what a global replace does anyway.
 */
const applyPattern = (text: string, shape: SecretPattern, kinds: SecretKind[]): string =>
  shape.pattern.test(text) ? replacePattern(text, shape, kinds) : text

const replacePattern = (text: string, { kind, pattern, secret, accept }: SecretPattern, kinds: SecretKind[]): string =>
  text.replace(pattern, (match: string, ...groups: unknown[]) => {
    const value = secret === undefined ? match : (groups[secret - 1] as string | undefined)
    if (value === undefined || (accept !== undefined && !accept(value))) return match
    kinds.push(kind)
    if (secret === undefined) return placeholder(kind)
    // Only the secret group is replaced; the text around it in the match (Bearer, user@) stays.
    const at = match.lastIndexOf(value)
    return match.slice(0, at) + placeholder(kind) + match.slice(at + value.length)
  })
