/**
 * Secrets given a name: `password=…`, `DB_PASSWORD: …`, `"apiKey": "…"`, `?token=…`. The name
 * and separator stay, the value is replaced, so the memory still says that a password is set
 * there. Values that are not secrets are left alone: references (`$DB_PASSWORD`,
 * `${{ secrets.X }}`, `<your-token>`), booleans and placeholders.
 */
import { isPathWord } from "./high-entropy.js"
import type { SecretKind } from "./vocabulary.js"
import { isPlaceholder, placeholder } from "./vocabulary.js"

/**
 * The name ends with one of the words (so `max_tokens` and `tokenizer` are not names of
 * secrets); `pwd` counts only as the end of a longer name (`DB_PWD`), since alone it is the
 * shell's working directory.
 */
const NAME = String.raw`(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?|(?<=[A-Za-z0-9][_.-])pwd))`
const ASSIGNMENT = new RegExp(
  String.raw`${NAME}(["']?)([ \t]*[=:][ \t]*)(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'&,;]+))`,
  "gi"
)

export const redactAssignments = (text: string): { text: string; kinds: SecretKind[] } =>
  // Most texts name no secret: one search for a name's last word before a separator says so,
  // where ASSIGNMENT tries its lazy name at every position (a sixth of the scan's time).
  NAME_END_THEN_SEPARATOR.test(text) ? redactEveryAssignment(text) : { text, kinds: [] }

/** redactAssignments without its shortcut (a property test compares the two). */
export const redactEveryAssignment = (text: string): { text: string; kinds: SecretKind[] } => {
  const kinds: SecretKind[] = []
  const replaced = text.replace(
    ASSIGNMENT,
    (match, name: string, quote: string, separator: string, doubleQuoted?: string, singleQuoted?: string, bare?: string) => {
      const value = doubleQuoted ?? singleQuoted ?? bare ?? ""
      const prose = separator.includes(":") && bare !== undefined
      if (!isSecretValue(value, prose)) return match
      const kind = kindOf(name)
      kinds.push(kind)
      const open = doubleQuoted !== undefined ? '"' : singleQuoted !== undefined ? "'" : ""
      return `${name}${quote}${separator}${open}${placeholder(kind)}${open}`
    }
  )
  return { text: replaced, kinds }
}

/**
 * Found in every text ASSIGNMENT matches: each word NAME ends with (every `…key` ends in `key`),
 * then the optional quote and the separator. Not only in those: it only rules texts out.
 */
const NAME_END_THEN_SEPARATOR = /(?:pass(?:word|wd|phrase)|secret|token|key|credentials?|pwd)["']?[ \t]*[=:]/i

const kindOf = (name: string): SecretKind =>
  /pass|pwd/i.test(name) ? "password" : /token/i.test(name) ? "token" : "secret"

const NOT_SECRETS = new Set(["true", "false", "null", "none", "nil", "undefined", "empty", "required", "optional", "yes", "no"])

/**
 * `prose` is a bare value after a colon: "password: must be 12 characters" is a sentence, so a
 * plain word there is kept; a value with a digit or a symbol (`password: hunter2`) is not.
 */
const isSecretValue = (value: string, prose: boolean): boolean => {
  if (value.length === 0 || isPlaceholder(value)) return false
  if (NOT_SECRETS.has(value.toLowerCase())) return false
  // References to where the secret lives, and placeholders people write instead of one.
  if (/^(?:\$|\{\{|<|process\.env|os\.environ|env\.)/.test(value) || /^%[A-Za-z_]\w*%$/.test(value)) return false
  if (/^[*x•.]+$/i.test(value)) return false
  if (isPathToSecret(value)) return false
  // `token == null`, `secret => …`: code comparing or mapping, not assigning.
  if (/^[=>]/.test(value)) return false
  // `password: z.string().min(8)`: a type or a call, in code that declares the field.
  if (prose && (/^[A-Za-z]+$/.test(value) || value.includes("("))) return false
  return true
}

/**
 * Where the secret is kept (`GOOGLE_APPLICATION_CREDENTIALS=/etc/gcp/key.json`,
 * `token: ~/.config/tool/token`), not the secret: a URL, or an absolute or home path of two or
 * more segments or with a file extension, every segment a path word. A base64 secret that
 * starts with a slash is not a path.
 */
const isPathToSecret = (value: string): boolean => {
  if (/^https?:\/\//.test(value)) return true
  const path = /^(?:~|\.\.?|[A-Za-z]:)?[\\/](.+)$/.exec(value)?.[1]
  if (path === undefined) return false
  const segments = path.split(/[\\/]/)
  const pathLike = segments.length >= 2 || /\.[A-Za-z0-9]{1,5}$/.test(path)
  return pathLike && segments.every(isPathWord)
}
