/**
 * The last resort of the redactor: a standalone token that looks generated rather than written.
 * It catches keys that have no known prefix (and the secret half of an AWS key pair), at the
 * price of a rule that can be wrong both ways; docs/privacy.md says where.
 */
import { shannonEntropy, wordShare } from "./entropy.js"

/** Shorter tokens are too often ids, and too easily random by chance, to judge. */
export const MIN_TOKEN_LENGTH = 32

/**
 * Below 3.5 bits per character a string is dominated by a few symbols (`AAAA…1b`, `0101…`).
 * Random base62 and base64 tokens of 32 or more characters never measured below 3.7 in a
 * million samples each, so this rejects repetition without ever rejecting a real key.
 */
export const MIN_ENTROPY_BITS = 3.5

/** Long identifiers mostly put at least this share of their characters in English-looking words. */
export const MAX_WORD_SHARE = 0.7

/**
 * A generated token: long enough, mixing upper case, lower case and digits (which rules out
 * hex digests, git SHAs and UUIDs, all lower case or all upper), varied enough, and not made
 * of words.
 */
export const looksGenerated = (token: string): boolean => {
  const core = token.replace(/=+$/, "")
  return (
    core.length >= MIN_TOKEN_LENGTH &&
    /[0-9]/.test(core) &&
    /[a-z]/.test(core) &&
    /[A-Z]/.test(core) &&
    shannonEntropy(core) >= MIN_ENTROPY_BITS &&
    wordShare(core) < MAX_WORD_SHARE
  )
}

/**
 * Replaces each generated token of `text` with `replacement` and counts them. A token is a run
 * of the base64 and base64url alphabets. A run with slashes and a generated part is either a
 * path or URL with a random segment, or a base64 secret that contains slashes: the parts that
 * read like path words stay, every other part goes, neighbours merged into one placeholder. A
 * run whose parts are all short is judged as a whole (`wJalr…/K7MDENG/bPxRfi…`).
 */
export const replaceGeneratedTokens = (text: string, replacement: string): { text: string; count: number } =>
  // Most texts hold no run long enough to judge: one search says so, where the replace below
  // calls back for every word and copies it (a few kilobytes of garbage per memory).
  hasLongEnoughRun(text) ? replaceEveryGeneratedToken(text, replacement) : { text, count: 0 }

/** replaceGeneratedTokens without its shortcut: every run is judged (a property test compares the two). */
export const replaceEveryGeneratedToken = (text: string, replacement: string): { text: string; count: number } => {
  let count = 0
  const replaced = text.replace(TOKEN_RUN, (run) => {
    if (run.length < MIN_TOKEN_LENGTH) return run
    const parts = run.split("/")
    if (parts.length > 1 && parts.some(looksGenerated)) {
      const kept: string[] = []
      for (const part of parts) {
        if (!looksGenerated(part) && isPathWord(part)) kept.push(part)
        else if (kept[kept.length - 1] !== replacement) {
          kept.push(replacement)
          count++
        }
      }
      return kept.join("/")
    }
    if (!looksGenerated(run)) return run
    count++
    return replacement
  })
  return { text: replaced, count }
}

/**
 * A path or URL segment written by a person: short (`d`, `v1`, `API`), lower case with digits
 * and dashes that do not keep alternating (`edit`, `us-central1`, `2024-06`, `i18n`), or mostly
 * words (`UserServiceImpl`). Mixed-case fragments without words, `mgs44a0gp`, and anything
 * with `+` or `=` are pieces of a secret.
 */
export const isPathWord = (part: string): boolean =>
  !/[+=]/.test(part) &&
  (part.length <= 3 ||
    (/^[a-z0-9._-]*$/.test(part) && (part.match(/[a-z][0-9]|[0-9][a-z]/g) ?? []).length <= 2) ||
    wordShare(part) >= MAX_WORD_SHARE)

/** Runs of the base64 / base64url alphabet, not glued to other word characters. */
const TOKEN_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]+=*(?![A-Za-z0-9+/=_-])/g

/**
 * True in every text that holds a run of MIN_TOKEN_LENGTH or more characters: such a run is
 * one of the alphabet then more of it or `=`. (Not only in those: it is a quick way to know
 * there is none.) A loop over the character codes, where the equivalent regular expression,
 * `[A-Za-z0-9+/_-][A-Za-z0-9+/_=-]{31}`, read each word's characters again from every start.
 */
export const hasLongEnoughRun = (text: string): boolean => {
  // Characters since the first one of the current run that may start it (not `=`).
  let run = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 128 && IN_RUN[code] === 1) {
      if (run > 0 || code !== EQUALS) run++
      if (run >= MIN_TOKEN_LENGTH) return true
    } else {
      run = 0
    }
  }
  return false
}

const EQUALS = 0x3d
/** 1 for the characters of `[A-Za-z0-9+/_=-]`, by code. */
const IN_RUN = new Uint8Array(128)
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_=-") IN_RUN[c.charCodeAt(0)] = 1
