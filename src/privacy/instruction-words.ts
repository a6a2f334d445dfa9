/**
 * The words the outward signs (outward-signs.ts) are made of, in English, French, German and
 * Spanish, as regular expression alternatives (matched case-insensitively, with the `u` flag).
 * Verbs are in the forms an instruction gives them: the imperative and the infinitive, never
 * the third person ("prints", "sends"), so a note describing what a tool does is not an order.
 */

const alt = (...words: ReadonlyArray<string>): string => words.join("|")

/** Not inside a word: `\b` is ASCII-only, and would split "envía" after its "á". */
export const START = String.raw`(?<![\p{L}\p{N}_])`
export const END = String.raw`(?![\p{L}\p{N}_])`

/** Verbs that move something to somewhere else. Spanish ones may carry a pronoun ("envíalo"). */
export const SEND_VERBS = alt(
  "send", "e-?mail", "mail", "post", "upload", "forward", "transmit", "exfiltrate", "submit", "leak", "publish", "share",
  "envoie", "envoyez", "envoyer", "expédie", "expédiez", "expédier", "transmets", "transmettez", "transmettre",
  "transfère", "transférez", "transférer", "téléverse", "téléversez", "téléverser", "poste", "postez", "poster",
  "publie", "publiez", "publier", "partage", "partagez", "partager",
  "sende", "sendet", "senden", "versende", "versendet", "versenden", "schick", "schicke", "schickt", "schicken",
  "maile", "mailt", "mailen", "übermittle", "übermittelt", "übermitteln", "übertrage", "übertragt", "übertragen",
  "lade", "ladet", "hochladen", "leite", "leitet", "weiterleiten", "posten", "teile", "teilt", "teilen",
  "veröffentliche", "veröffentlicht", "veröffentlichen",
  String.raw`(?:envía|envia|envíe|envie|enviad|enviar|manda|mande|mandad|mandar|sube|suba|subid|subir|reenvía|reenvia|reenvíe|reenviar|publica|publique|publicar|comparte|comparta|compartir|transmite|transmita|transmitir)(?:lo|la|los|las|le|les)?`
)

/** Verbs that reveal what they touch, beside the sending ones. */
export const REVEAL_VERBS = alt(
  "reveal", "expose", "disclose",
  "révèle", "révélez", "révéler", "divulgue", "divulguez", "divulguer",
  "verrate", "verratet", "verraten",
  String.raw`(?:revela|revele|revelar|divulga|divulgue|divulgar)(?:lo|la|los|las)?`
)

/** Verbs that put what a file holds where someone can read it: the screen, a message, a pipe. */
export const SHOW_VERBS = alt(
  "cat", "print", "dump", "echo", "paste", "attach", "base64", "curl", "wget", "scp", "rsync", "nc",
  "affiche", "affichez", "afficher", "colle", "collez", "coller", "joins", "joignez", "joindre", "imprime", "imprimez",
  "zeig", "zeige", "zeigt", "zeigen", "ausgeben", "füge", "fügt", "einfügen", "hänge", "hängt", "anhängen",
  String.raw`(?:muestra|muestre|mostrar|pega|pegue|pegar|adjunta|adjunte|adjuntar|imprime|imprima|imprimir)(?:lo|la|los|las)?`
)

/** Verbs that only read or copy: enough, for a file that holds keys, to be an instruction to take them. */
export const READ_VERBS = alt(
  "read", "show", "display", "output", "copy", "cp", "encode", "zip", "tar", "include",
  "lis", "lisez", "lire", "montre", "montrez", "montrer", "copie", "copiez", "copier", "inclus", "incluez", "inclure",
  "lies", "lest", "lesen", "kopier", "kopiere", "kopiert", "kopieren",
  String.raw`(?:lee|lea|leed|leer|copia|copie|copiad|copiar|incluye|incluya|incluir)(?:lo|la|los|las)?`
)

/** German puts an infinitive last ("~/.ssh/id_rsa an x senden"): these count after their object too. */
export const FINAL_VERBS = alt(
  "senden", "versenden", "schicken", "mailen", "übermitteln", "übertragen", "hochladen", "weiterleiten", "posten",
  "teilen", "veröffentlichen", "kopieren", "lesen", "zeigen", "ausgeben", "einfügen", "anhängen", "verraten"
)

/** "to" before a destination. */
export const TO = alt(
  "to", "at", "into", "onto", "on", "via",
  "à", "a", "au", "aux", "vers", "sur", "chez", "dans",
  "an", "nach", "auf", "zu", "zum", "zur", "unter", "in", "per",
  "al", "hacia", "en", "para", "por"
)

/** Words that make the verb after them a noun: "the email to ...", "le poste de ...". */
export const DETERMINERS = alt(
  "the", "a", "an", "your", "our", "my", "this", "that", "each", "every",
  "le", "la", "les", "l'", "l’", "un", "une", "ce", "cet", "cette", "mon", "ton", "son", "notre", "votre", "du", "des",
  "die", "der", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "eines",
  "el", "los", "las", "una", "su", "tu", "mi", "del", "lo"
)

/** Words that turn the verb after them, or (in French and German) just before, into a prohibition. */
export const NEGATIONS = alt(
  "never", "not", "don't", "don’t", "dont", "no",
  "ne", "n'", "n’", "jamais", "pas",
  "nie", "niemals", "nicht", "kein", "keine",
  "nunca", "jamás"
)

/**
 * Files that hold keys or credentials. An SSH folder's public parts (`*.pub`, `config`,
 * `known_hosts`, `authorized_keys`) are not secrets and are left out by `isKeyFile`.
 */
export const KEY_FILES = alt(
  String.raw`(?:~|\$HOME|%USERPROFILE%)?[\\/]?\.ssh(?:[\\/][\w.-]*)?`,
  String.raw`id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:\.pub)?`,
  String.raw`\.aws[\\/]credentials`, String.raw`\.netrc`, String.raw`\.pgpass`, String.raw`\.npmrc`, String.raw`\.pypirc`,
  String.raw`\.git-credentials`, String.raw`\.docker[\\/]config\.json`, String.raw`\.kube[\\/]config`, String.raw`\.gnupg`,
  String.raw`[\w-]+\.(?:pem|p12|pfx|jks|keystore)`,
  "keychain", "keyring", "trousseau", "schlüsselbund", "llavero",
  "private keys?", String.raw`clés? privées?`, String.raw`clefs? privées?`, "private[nrms]? schlüssel", "privatschlüssel",
  String.raw`claves? privadas?`, String.raw`llaves? privadas?`
)

/**
 * `.env` and its per-environment variants; `.env.example` and the like are templates. Named in
 * so many ordinary notes ("copy .env.example to .env") that only sending or showing it counts.
 */
export const ENV_FILES = String.raw`(?<![\w./-])\.env(?:\.(?:local|production|prod|development|dev|staging|test))?(?![\w.])`

/** Secrets named by what they are rather than where they live. */
export const SECRET_NOUNS = alt(
  "api keys?", "access keys?", "secret keys?", "passwords?", "credentials", "secrets",
  // A bare "token" is as often a model's token as a credential.
  String.raw`(?:access|auth|api|github|gitlab|npm|deploy|session|bearer|refresh) tokens?`,
  "mots? de passe", "identifiants", String.raw`jetons? d['’]acc[eè]s`, String.raw`clés? d['’]api`, "clés? api",
  "passwörter", "passwoerter", "passwort", "kennwörter", "kennwort", "zugangsdaten", "anmeldedaten", "geheimnisse",
  "api-schlüssel", "zugriffstokens?",
  "contraseñas?", "credenciales", "claves? de api", "secretos", "tokens? de acceso"
)
