/** Which files can be attached to a chat message, mirroring the server's limits (backend/agent/attachments.py). */
import { extensionOf } from "@/lib/files";
import { formatBytes } from "@/lib/format";

export const MAX_ATTACHMENTS = 5;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
const IMAGES = new Set(["png", "jpg", "jpeg", "webp", "gif"]);
// .doc too: the server reads a Word document saved with the old extension (and refuses a real old one).
// Macro-enabled documents and templates are read as Word documents (their macros never run).
const DOCUMENTS = new Set(["pdf", "docx", "doc", "docm", "dotx", "dotm", "txt", "text", "md", "markdown"]);
export const ATTACHMENT_ACCEPT = ".png,.jpg,.jpeg,.webp,.gif,.pdf,.docx,.doc,.docm,.dotx,.dotm,.txt,.md,.markdown";

export type AttachmentKind = "image" | "document";

export function attachmentKind(file: { name: string; type: string }): AttachmentKind | null {
  const extension = extensionOf(file.name);
  if (IMAGES.has(extension) || /^image\/(png|jpe?g|webp|gif)$/.test(file.type)) return "image";
  // Without an extension (a download, a file saved from a chat app) the server decides by content.
  if (DOCUMENTS.has(extension) || !extension) return "document";
  return null;
}

/** Why this file can't be attached, or null when it can. */
export function attachmentProblem(file: { name: string; type: string; size: number }, alreadyAttached: number): string | null {
  if (alreadyAttached >= MAX_ATTACHMENTS) return `At most ${MAX_ATTACHMENTS} files per message.`;
  const kind = attachmentKind(file);
  if (!kind) return `${file.name}: only images (PNG, JPEG, WebP, GIF), PDF, Word, text and Markdown files can be attached.`;
  const limit = kind === "image" ? MAX_IMAGE_BYTES : MAX_DOCUMENT_BYTES;
  if (file.size > limit) return `${file.name} is ${formatBytes(file.size)}; the limit is ${formatBytes(limit)}.`;
  return null;
}

/** A pasted screenshot has a generic name; give it a useful one. */
export function pastedName(file: { name: string; type: string }, now: Date = new Date()): string {
  if (file.name && file.name !== "image.png") return file.name;
  const extension = file.type.split("/")[1] ?? "png";
  const stamp = now.toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return `pasted-${stamp}.${extension === "jpeg" ? "jpg" : extension}`;
}
