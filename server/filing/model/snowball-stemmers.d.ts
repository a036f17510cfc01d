// snowball-stemmers ships no types: the part the suggestion model uses.
declare module 'snowball-stemmers' {
  export function newStemmer(language: string): { stem(word: string): string };
}
