/**
 * Everything the command palette can do: go to a screen, run an action, start something in the study
 * hub, review a deck with cards due, or open a conversation or a document by its name. The lists behind
 * the last three are fetched only while the palette is open (shared with their screens' caches).
 */
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import {
  FileText, MessageSquare, MessageSquarePlus, Moon, RotateCcw, Sun, Upload,
  type LucideIcon,
} from "lucide-react";
import { useNavigate } from "react-router";
import { fetchDecks, fetchSessions, listKeys } from "@/api/lists";
import { documentFileUrl, fetchDocuments, vaultKeys } from "@/api/vault";
import type { GeneratorKind } from "@/features/study/api/types";
import { KINDS } from "@/features/study/components/kinds";
import { fileTypeLabel, formatRelative } from "@/lib/format";
import { NAV_ITEMS } from "../nav";
import { useTheme } from "../theme";
import type { GroupSpec } from "./paletteSearch";

export interface PaletteItem {
  id: string;
  label: string;
  group: string;
  icon: LucideIcon;
  keywords?: string;
  /** A short fact on the right: "12 due", "Biology · PDF", "2 days ago". */
  hint?: string;
  run: () => void;
}

export const PALETTE_GROUPS: GroupSpec[] = [
  { name: "Go to", browse: true },
  { name: "Study", browse: true },
  { name: "Actions", browse: true },
  { name: "Conversations", browse: false, limit: 6 },
  { name: "Documents", browse: false, limit: 6 },
];

/** The study hub's four generators (icons from the hub's own KINDS), with what people type to find them. */
const STUDY_NEW: Array<{ kind: GeneratorKind; label: string; keywords: string }> = [
  { kind: "quiz", label: "New quiz", keywords: "questions test exam generate" },
  { kind: "deck", label: "New flashcards", keywords: "cards deck spaced repetition generate" },
  { kind: "workshop", label: "New workshop", keywords: "course lessons learn generate" },
  { kind: "mindmap", label: "New mind map", keywords: "mindmap topics diagram generate" },
];

/** The palette's items; `loading` while the lists it just asked for are on their way. */
export function usePaletteItems(open: boolean): { items: PaletteItem[]; loading: boolean } {
  const navigate = useNavigate();
  const theme = useTheme();
  const documents = useQuery({ queryKey: vaultKeys.documents, queryFn: fetchDocuments, enabled: open });
  const sessions = useQuery({ queryKey: listKeys.sessions, queryFn: fetchSessions, enabled: open });
  const decks = useQuery({ queryKey: listKeys.decks, queryFn: fetchDecks, enabled: open });

  const commands = useMemo<PaletteItem[]>(() => [
    ...NAV_ITEMS.map((item) => ({
      id: `nav:${item.to}`, label: `Go to ${item.label}`, group: "Go to", icon: item.icon,
      keywords: `open ${item.keywords ?? ""}`, run: () => navigate(item.to),
    })),
    ...STUDY_NEW.map(({ kind, label, keywords }) => ({
      id: `study:new:${kind}`, label, group: "Study", icon: KINDS[kind].icon, keywords: `study make create ${keywords}`,
      run: () => navigate(`/study/new/${kind}`),
    })),
    { id: "chat:new", label: "New chat", group: "Actions", icon: MessageSquarePlus, keywords: "ask question conversation",
      run: () => navigate("/chat") },
    { id: "library:upload", label: "Add documents", group: "Actions", icon: Upload, keywords: "upload import url files",
      run: () => navigate("/library?add=1") },
    { id: "theme:toggle", label: theme.resolved === "dark" ? "Switch to light theme" : "Switch to dark theme",
      group: "Actions", icon: theme.resolved === "dark" ? Sun : Moon, keywords: "theme dark light appearance", run: theme.toggle },
  ], [navigate, theme]);

  const due = useMemo<PaletteItem[]>(() => (decks.data ?? [])
    .filter((deck) => deck.due_count > 0)
    .map((deck) => ({
      id: `review:${deck.id}`, label: `Review ${deck.title}`, group: "Study", icon: RotateCcw,
      keywords: "due cards flashcards deck study", hint: `${deck.due_count} due`,
      run: () => navigate(`/study/decks/${encodeURIComponent(deck.id)}/review`),
    })), [decks.data, navigate]);

  const conversations = useMemo<PaletteItem[]>(() => (sessions.data ?? []).map((session) => ({
    id: `chat:${session.id}`, label: session.title, group: "Conversations", icon: MessageSquare,
    keywords: "chat conversation", hint: formatRelative(session.updated_at),
    run: () => navigate(`/chat/${encodeURIComponent(session.id)}`),
  })), [sessions.data, navigate]);

  // A PDF opens in the browser's viewer; other originals would only download, so those show in the
  // library instead (filtered to them: status, category, the original a click away).
  const files = useMemo<PaletteItem[]>(() => (documents.data ?? []).map((doc) => {
    const type = fileTypeLabel(doc.filename, doc.kind);
    const pdf = type === "PDF";
    return {
      id: `doc:${doc.id}`, label: doc.filename, group: "Documents", icon: FileText,
      keywords: `document file ${doc.category ?? ""} ${type}`,
      hint: [doc.category, pdf ? "opens the PDF" : "shows in the library"].filter(Boolean).join(" · "),
      run: pdf
        ? () => void window.open(documentFileUrl(doc.id), "_blank", "noopener")
        : () => navigate(`/library?q=${encodeURIComponent(doc.filename)}`),
    };
  }), [documents.data, navigate]);

  const items = useMemo(() => [...commands, ...due, ...conversations, ...files], [commands, due, conversations, files]);
  return { items, loading: documents.isPending || sessions.isPending };
}
