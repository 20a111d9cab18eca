/**
 * Default titles name the kind and the scope ("Quiz: lecture-3.pdf + 2 more", backend/study/scopes.py).
 * Where the kind is already plain (a card in the "Quizzes" section), the prefix is noise. Pure.
 */
export function withoutKindPrefix(title: string, prefix: string): string {
  const marker = `${prefix}: `;
  if (!title.startsWith(marker) || title.length === marker.length) return title;
  const rest = title.slice(marker.length);
  // A file name keeps its case ("lecture-3.pdf"); words start with a capital ("Whole vault").
  const firstWord = rest.split(/\s/, 1)[0] ?? "";
  return firstWord.includes(".") ? rest : rest.charAt(0).toUpperCase() + rest.slice(1);
}
