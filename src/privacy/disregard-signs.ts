/**
 * Orders to disregard instructions, in English, French, German and Spanish, beyond the English
 * "ignore previous instructions" of instruction-like.ts: "ignore the user's instructions",
 * "disregard everything above", "oublie tes consignes", "ignoriere alle vorherigen
 * Anweisungen", "haz caso omiso de las instrucciones del sistema".
 *
 * Each language has a verb, then filler words, then instructions that are marked as someone's
 * or as earlier (before the noun, or after it), or "everything said so far". An unmarked noun
 * is not enough: "ignore the lint rules" is a note, "ignore your rules" is an order.
 */
import { END, START } from "./instruction-words.js"

interface Language {
  readonly verbs: string
  readonly fillers: string
  /** Marks before the noun: possessives, "all", German adjectives. */
  readonly before: string
  readonly nouns: string
  /** Marks after the noun: "above", "précédentes", "del sistema". */
  readonly after: string
  readonly everything: string
}

const ENGLISH: Language = {
  verbs: String.raw`ignore|disregard|forget|override|bypass|do\s+not\s+follow|don['’]t\s+follow|stop\s+following|no\s+longer\s+follow`,
  fillers: "of|the|about|any|every|each|these|those|previous|prior|earlier|original|own|current",
  before: String.raw`all|your|my|the\s+(?:user|system|developer|operator)['’]s`,
  nouns: "instructions?|prompts?|rules|directions|guidelines|guardrails|orders|constraints|directives",
  after: String.raw`above|before|so\s+far|you\s+(?:were|have\s+been)\s+given`,
  everything: String.raw`(?:everything|anything|all)\s+(?:above|before|prior|earlier|previously\s+said|you\s+(?:were|have\s+been)\s+told)`
}

const FRENCH: Language = {
  verbs: String.raw`ignore|ignorez|ignorer|oublie|oubliez|oublier|ne\s+tiens\s+pas\s+compte|ne\s+tenez\s+pas\s+compte|ne\s+pas\s+tenir\s+compte|fais\s+abstraction|faites\s+abstraction|passe\s+outre|passez\s+outre|outrepasse|outrepassez|ne\s+suis\s+(?:pas|plus)|ne\s+suivez\s+(?:pas|plus)|cesse\s+de\s+suivre|cessez\s+de\s+suivre`,
  fillers: String.raw`de|des|du|d['’]|à|aux|les|la|le|l['’]`,
  before: "toutes|tous|tes|vos|ses|mes|leurs",
  nouns: "instructions?|consignes?|règles|directives|ordres|indications|prompts?|contraintes",
  after: String.raw`précédent(?:e|es|s)?|antérieur(?:e|es|s)?|ci-dessus|d['’]avant|du\s+système|système|initiales?|d['’]origine|originales?|reçues?`,
  everything: String.raw`tout\s+(?:ce\s+qui\s+précède|ce\s+qu['’]on\s+t['’]a\s+dit|ce\s+qui\s+est\s+(?:au-)?dessus|ce\s+qui\s+a\s+été\s+dit)`
}

const GERMAN: Language = {
  verbs: String.raw`ignorier(?:e|t|en)?|vergiss|vergesst|vergessen\s+sie|missachte|missachtet|missachten|übergehe|übergeht|umgehe|umgeht`,
  fillers: "die|der|den|dem|das|von|aus|zu|zur",
  before: String.raw`alle|allen|deine|deinen|eure|euren|ihre|ihren|sämtliche|jegliche|vorherigen?|vorigen?|bisherigen?|obigen?|früheren?|ursprünglichen?|vorangegangenen?`,
  nouns: String.raw`anweisungen|anweisung|instruktionen|vorgaben|regeln|befehle|richtlinien|anordnungen|system-?anweisungen|system-?prompts?|einschränkungen`,
  after: String.raw`des\s+systems|von\s+oben|von\s+vorher`,
  everything: String.raw`alles\s+(?:oben\s+gesagte|vorherige|bisherige|bisher\s+gesagte|zuvor\s+gesagte|davor)`
}

const SPANISH: Language = {
  verbs: String.raw`ignora|ignore|ignorad|ignorar|olvida|olvide|olvidad|olvidar|olvídate\s+de|olvídese\s+de|no\s+hagas\s+caso|no\s+haga\s+caso|haz\s+caso\s+omiso|haga\s+caso\s+omiso|pasa\s+por\s+alto|pase\s+por\s+alto|desobedece|desobedezca|no\s+sigas|no\s+siga|deja\s+de\s+seguir|deje\s+de\s+seguir`,
  fillers: "de|del|a|al|las|los|la|el",
  before: "todas|todos|tus|sus|mis|vuestras",
  nouns: "instrucciones|instrucción|reglas|indicaciones|órdenes|directrices|normas|consignas|prompts?|restricciones",
  after: String.raw`anteriores|previas|de\s+arriba|del\s+sistema|originales|iniciales|recibidas|que\s+(?:te|le)\s+(?:dieron|han\s+dado)`,
  everything: String.raw`todo\s+lo\s+(?:anterior|dicho|de\s+arriba|que\s+(?:te|le)\s+(?:dijeron|han\s+dicho))`
}

/** "Beachte die bisherigen Anweisungen nicht mehr": German puts the negation of "follow" last. */
const GERMAN_NOT_FOLLOWING = String.raw`(?:beachte|beachtet|befolge|befolgt|folge|folgt)\s+(?:(?:${GERMAN.fillers})\s+){0,4}(?:${GERMAN.before})\s+(?:(?:${GERMAN.fillers}|${GERMAN.before})\s+){0,4}(?:${GERMAN.nouns})(?:\s+[\p{L}-]+){0,2}?\s+(?:nicht|nie|niemals|keinesfalls)`

const languagePattern = ({ verbs, fillers, before, nouns, after, everything }: Language): string => {
  // A filler ending in an apostrophe ("d'", "l'") runs straight into the next word.
  // At most four of each, so that a text of nothing but filler words costs no more than a few.
  const filler = String.raw`(?:(?:${fillers})(?:\s+|(?<=['’]))){0,4}`
  // Several marks may come before the noun: "alle vorherigen Anweisungen".
  const marks = String.raw`(?:(?:${fillers}|${before})(?:\s+|(?<=['’]))){0,4}`
  const marked = String.raw`(?:${before})\s+${marks}(?:${nouns})|(?:${nouns})\s+(?:${after})|${everything}`
  return String.raw`${START}(?:${verbs})\s+${filler}(?:${marked})${END}`
}

/** Why `text` orders its reader to disregard instructions, or undefined. */
export const disregardReason = (text: string): string | undefined =>
  DISREGARD_VERB.test(text) && DISREGARD.test(text) ? "asks to ignore earlier instructions" : undefined

/** Found in every text DISREGARD matches: the start of each language's verbs. */
const DISREGARD_VERB = /ignor|disregard|forget|override|bypass|follow|oubli|compte|abstraction|outre|ne\s+sui|suivre|vergiss|vergess|missacht|übergeh|umgeh|beacht|folg|olvid|olvíd|caso|alto|desobede|no\s+sig|seguir/i

const DISREGARD = new RegExp(
  [ENGLISH, FRENCH, GERMAN, SPANISH].map(languagePattern).concat(String.raw`${START}${GERMAN_NOT_FOLLOWING}${END}`).join("|"),
  "iu"
)
