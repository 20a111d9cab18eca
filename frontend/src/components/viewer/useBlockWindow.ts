/** A window of a document's blocks, opened around a cited block (or at the start), that can grow. */
import { useState } from "react";
import { useBlocks, type BlockQuery } from "@/api/viewer";

const MAX_WINDOW = 200; // the server's limit per request

export function useBlockWindow(documentId: string, block: string | null, size: number) {
  const [query, setQuery] = useState<BlockQuery>(block ? { around: block, limit: size } : { start: 0, limit: size });
  const blocks = useBlocks(documentId, query);
  const list = blocks.data?.blocks ?? [];
  const first = list[0]?.ordinal ?? 0;
  const last = list[list.length - 1]?.ordinal ?? 0;
  return {
    blocks,
    showEarlier: () => {
      const start = Math.max(0, first - size);
      setQuery({ start, limit: Math.min(MAX_WINDOW, last - start + 1) });
    },
    showLater: () =>
      setQuery(list.length + size <= MAX_WINDOW ? { start: first, limit: list.length + size } : { start: last + 1, limit: size * 2 }),
  };
}
