/**
 * Instructions that would take something out of the machine: send data to an e-mail address or
 * a URL (in words, or with curl, wget or netcat), or read, show or send files and secrets that
 * hold credentials. A note may name `.env` or an address freely; what is flagged is an order to
 * move or show such a thing, in English, French, German or Spanish (instruction-words.ts).
 *
 * Each sign returns its reason, or undefined. A verb after a negation ("never send", "n'envoie
 * jamais") or after a determiner ("the email to ...") is not an order and does not count.
 */
import {
  DETERMINERS,
  END,
  ENV_FILES,
  FINAL_VERBS,
  KEY_FILES,
  NEGATIONS,
  READ_VERBS,
  REVEAL_VERBS,
  SECRET_NOUNS,
  SEND_VERBS,
  SHOW_VERBS,
  START,
  TO
} from "./instruction-words.js"

export type OutwardSign = (text: string) => string | undefined

/**
 * "send ... to ops@example.net", "email ops@example.net ...", "lade ... auf https://x hoch",
 * "... an ops@example.net senden": an address, and an order to send in its clause.
 */
export const sendsToAddress: OutwardSign = (text) => {
  if (!text.includes("@") && !text.includes("://")) return undefined
  for (const address of text.matchAll(ADDRESSES)) {
    const start = clauseStart(text, address.index, 120)
    const before = text.slice(start, address.index)
    const verbs = TO_BEFORE.test(before) ? before.matchAll(SEND) : before.matchAll(SEND_RIGHT_BEFORE)
    for (const verb of verbs) if (isOrder(text, start + verb.index, verb[0].trimEnd())) return sentTo(address[0])
    if (TO_BEFORE.test(before) && hasFinalOrder(text, address.index + address[0].length, IS_SEND)) return sentTo(address[0])
  }
  return undefined
}

/** curl or wget with data to send and a URL that is not this machine; netcat to another host. */
export const sendsWithCommand: OutwardSign = (text) => {
  if (!COMMAND_NAMED.test(text)) return undefined
  for (const command of text.matchAll(COMMAND)) {
    const line = command[0]
    const url = EXTERNAL_URL.exec(line)
    if (url !== null && DATA_FLAG.test(line)) return sentTo(url[0])
  }
  const netcat = NETCAT.exec(text)
  return netcat === null ? undefined : sentTo(netcat.groups?.["host"] ?? netcat.groups?.["tcp"] ?? netcat[0])
}

/** A file that holds keys, read, shown or sent; `.env` shown or sent; secrets sent or revealed. */
export const touchesCredentials: OutwardSign = (text) => {
  for (const rule of CREDENTIAL_RULES) {
    if (!rule.named.test(text)) continue
    for (const object of text.matchAll(rule.objects)) {
      if (isKeyFile(object[0]) && !isDestination(text, object.index) && hasOrder(text, object, rule)) {
        return `touches credential files or keys ('${clip(object[0])}')`
      }
    }
  }
  return undefined
}

const EMAIL = String.raw`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}`
/** A URL on another machine: loopback addresses are where local servers answer, not a way out. */
const URL_ELSEWHERE = String.raw`(?:https?|ftps?|wss?|sftp)://(?!(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\])(?![\p{L}\p{N}.-]))[^\s"'\u0060<>()]*[^\s"'\u0060<>().,;:!?]`
const ADDRESSES = new RegExp(`${EMAIL}|${URL_ELSEWHERE}`, "giu")
const TO_BEFORE = new RegExp(String.raw`${START}(?:${TO})\s+$`, "iu")
const SEND = new RegExp(String.raw`${START}(?:${SEND_VERBS})${END}`, "giu")
const SEND_RIGHT_BEFORE = new RegExp(String.raw`${START}(?:${SEND_VERBS})\s+$`, "giu")
const IS_SEND = new RegExp(`^(?:${SEND_VERBS})$`, "iu")

const COMMAND_NAMED = /curl|wget|\|\s*n(?:c|cat|etcat)\s|\/dev\/tcp/i
const COMMAND = /(?<![\w-])(?:curl|wget)(?![\w-])[^\n;|&`]*/giu
const EXTERNAL_URL = new RegExp(URL_ELSEWHERE, "iu")
const DATA_FLAG = /\s(?:-d|-F|-T|--data(?:-binary|-raw|-urlencode|-ascii)?|--form(?:-string)?|--upload-file|--json|--post-data|--post-file|--body-data|--body-file)(?=[\s=@'"]|$)/u
const NETCAT =
  /(?:\|\s*(?:nc|ncat|netcat)\s+(?:-\S+\s+)*(?<host>(?!localhost\b|127\.)[\w.-]+)\s+\d+|\/dev\/tcp\/(?<tcp>(?!localhost\b|127\.)[\w.-]+)\/\d+)/iu

const ANY_OF = (...sources: ReadonlyArray<string>) => new RegExp(String.raw`${START}(?:${sources.join("|")})${END}`, "giu")

/** What counts as taking each kind of object: the more plainly a secret, the more verbs. */
interface CredentialRule {
  /** Found in every object of the rule: one quick search rules most texts out. */
  readonly named: RegExp
  readonly objects: RegExp
  /** Every verb of the rule, to search a clause with. */
  readonly verbs: RegExp
  /** The same verbs as one whole word, to check a German infinitive found after the object. */
  readonly isVerb: RegExp
}
const rule = (named: RegExp, objects: RegExp, ...verbs: ReadonlyArray<string>): CredentialRule => ({
  named,
  objects,
  verbs: ANY_OF(...verbs),
  isVerb: new RegExp(`^(?:${verbs.join("|")})$`, "iu")
})
const CREDENTIAL_RULES: ReadonlyArray<CredentialRule> = [
  rule(
    /\.ssh|id_[der]|\.aws|netrc|pgpass|npmrc|pypirc|credentials|\.docker|\.kube|gnupg|\.(?:pem|p12|pfx|jks|keystore)|key(?:chain|ring)|trousseau|schlüssel|llave|priv/i,
    ANY_OF(KEY_FILES),
    SEND_VERBS,
    REVEAL_VERBS,
    SHOW_VERBS,
    READ_VERBS
  ),
  rule(/\.env/i, new RegExp(ENV_FILES, "giu"), SEND_VERBS, REVEAL_VERBS, SHOW_VERBS),
  rule(
    /pass|secret|token|credential|identifiant|jeton|cl[eé]|kennw|zugang|anmelde|geheim|schl|contrase|credenci|clave|api key|access key/i,
    ANY_OF(SECRET_NOUNS),
    SEND_VERBS,
    REVEAL_VERBS
  )
]
const FINAL = new RegExp(String.raw`${START}(?:${FINAL_VERBS})${END}`, "iu")

/** An SSH folder's public parts are no secret: public keys, its config, the hosts it knows. */
const isKeyFile = (name: string): boolean => !/\.pub$|[\\/](?:config|known_hosts\d?|authorized_keys\d?)$/i.test(name)

/** The object is where something goes ("copy .env.example to .env"), not what is taken. */
const isDestination = (text: string, at: number): boolean => DESTINATION_BEFORE.test(text.slice(Math.max(0, at - 24), at))
const DESTINATION_BEFORE = new RegExp(
  String.raw`${START}(?:to|into|in|onto|vers|dans|nach|a|en|al)\s+(?:(?:${DETERMINERS})\s*)?$`,
  "iu"
)

/** An order among `verbs` in the object's clause: before it, or (a German infinitive) just after. */
const hasOrder = (text: string, object: RegExpExecArray, { verbs, isVerb }: CredentialRule): boolean => {
  const start = clauseStart(text, object.index, 80)
  for (const verb of text.slice(start, object.index).matchAll(verbs)) if (isOrder(text, start + verb.index, verb[0])) return true
  return hasFinalOrder(text, object.index + object[0].length, isVerb)
}

/** A German infinitive among `isVerb`, after `at` in its clause: "~/.ssh/id_rsa per E-Mail ... senden". */
const hasFinalOrder = (text: string, at: number, isVerb: RegExp): boolean => {
  const final = FINAL.exec(text.slice(at, clauseEnd(text, at, 40)))
  return final !== null && isVerb.test(final[0]) && isOrder(text, at + final.index, final[0])
}

/** Where the clause holding `at` starts, at most `max` characters back: a sentence's end, a line, `;`, `!`, `?`. */
const clauseStart = (text: string, at: number, max: number): number => {
  let i = at
  while (i > 0 && at - i < max && !isClauseBreak(text, i - 1)) i--
  return i
}
const clauseEnd = (text: string, at: number, max: number): number => {
  let i = at
  while (i < text.length && i - at < max && !isClauseBreak(text, i)) i++
  return i
}
const isClauseBreak = (text: string, i: number): boolean => {
  const c = text[i]
  return c === "\n" || c === ";" || c === "!" || c === "?" || (c === "." && (i + 1 === text.length || /\s/.test(text[i + 1]!)))
}

/** The verb at `at` is an order: not negated, not a noun after a determiner, not an HTTP method. */
const isOrder = (text: string, at: number, verb: string): boolean => {
  if (verb === "POST") return false
  const before = text.slice(Math.max(0, at - 32), at)
  if (NEGATED_BEFORE.test(before) || NOUN_BEFORE.test(before)) return false
  return !NEGATED_AFTER.test(text.slice(at + verb.length, at + verb.length + 48))
}
const NEGATED_BEFORE = new RegExp(String.raw`${START}(?:${NEGATIONS})(?:\s+|(?<=['’]))(?:[\p{L}'’-]+\s+)?$`, "iu")
const NOUN_BEFORE = new RegExp(String.raw`${START}(?:${DETERMINERS})(?:\s+|(?<=['’]))$`, "iu")
/** French and German put the negation after the verb: "Sende die Datei niemals ...". */
const NEGATED_AFTER = new RegExp(String.raw`^(?:\s+[\p{L}'’-]+){0,3}?\s+(?:nicht|nie|niemals|jamais)${END}`, "iu")

const sentTo = (address: string): string => `sends data to an outside address ('${clip(address)}')`
const clip = (text: string): string => (text.length <= 60 ? text : `${text.slice(0, 59)}…`)
