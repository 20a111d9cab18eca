/** Links into the viewer and into chat, built in one place so every screen opens them the same way. */

export function viewerHref(documentId: string, at: { block?: string | null; page?: number | null; q?: string } = {}): string {
  const params = new URLSearchParams();
  if (at.block) params.set("block", at.block);
  if (at.page) params.set("page", String(at.page));
  if (at.q) params.set("q", at.q);
  const search = params.toString();
  return `/library/documents/${encodeURIComponent(documentId)}${search ? `?${search}` : ""}`;
}

/** Chat, with the question typed in and the conversation scoped to the one document. */
export function askInChatHref(documentId: string, question: string): string {
  const params = new URLSearchParams({ ask: question, doc: documentId });
  return `/chat?${params}`;
}
