declare module 'porter-stemmer' {
  /** Martin Porter's stemming algorithm: the stem of one lower-case English word. */
  export function stemmer(word: string): string;
}
