/**
 * Items that come from documents (search hits, a generated item's sources), grouped by their document for
 * display: one group per document, in the order of its first item. Pure.
 */

export interface DocumentGroup<T> {
  document_id: string;
  filename: string;
  items: T[];
}

export function groupByDocument<T extends { document_id: string; filename: string }>(
  items: readonly T[],
): DocumentGroup<T>[] {
  const groups = new Map<string, DocumentGroup<T>>();
  for (const item of items) {
    const group = groups.get(item.document_id) ?? { document_id: item.document_id, filename: item.filename, items: [] };
    group.items.push(item);
    groups.set(item.document_id, group);
  }
  return [...groups.values()];
}
