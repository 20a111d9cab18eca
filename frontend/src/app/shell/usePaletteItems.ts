/**
 * Everything the command palette can do: go to a screen, run an action, start something in the study
 * hub, review a deck with cards due, open a quiz, deck, workshop, mind map, conversation or document by
 * its name, or a passage found by searching the documents' text (hybrid search, debounced). The lists
 * are fetched only while the palette is open (shared with their screens' caches).
 */
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import {
  FileText, MessageSquare, MessageSquarePlus, Moon, RotateCcw, Sun, TextSearch, Upload,
  type LucideIcon,
} from "lucide-react";
import { useNavigate } from "react-router";
import { fetchDecks, fetchMindmaps, fetchQuizzes, fetchSessions, fetchWorkshops, listKeys } from "@/api/lists";
import { hitPlace, usePassageSearch } from "@/api/search";
import { fetchDocuments, vaultKeys } from "@/api/vault";
import { useDebounced } from "@/hooks/useDebounced";
import type { GeneratorKind } from "@/features/study/api/types";
import { KINDS } from "@/features/study/components/kinds";
import { fileTypeLabel, formatRelative } from "@/lib/format";
import { readableMarkdown } from "@/lib/highlight";
import { viewerHref } from "@/lib/viewerLinks";
import { formatAlsoAt } from "@/lib/location";
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
  { name: "Study items", browse: false, limit: 6 },
  { name: "Conversations", browse: false, limit: 6 },
  { name: "Documents", browse: false, limit: 6 },
  { name: "Passages", browse: false, limit: 6, matchedByServer: true },
];

const PASSAGE_LABEL_CHARS = 110;

/** The study hub's four generators (icons from the hub's own KINDS), with what people type to find them. */
const STUDY_NEW: Array<{ kind: GeneratorKind; label: string; keywords: string }> = [
  { kind: "quiz", label: "New quiz", keywords: "questions test exam generate" },
  { kind: "deck", label: "New flashcards", keywords: "cards deck spaced repetition generate" },
  { kind: "workshop", label: "New workshop", keywords: "course lessons learn generate" },
  { kind: "mindmap", label: "New mind map", keywords: "mindmap topics diagram generate" },
  { kind: "audio_overview", label: "New audio overview", keywords: "podcast listen speech voice audio generate" },
];

/** The palette's items for what is typed; `loading` while the lists it just asked for are on their way. */
export function usePaletteItems(open: boolean, query: string): { items: PaletteItem[]; loading: boolean } {
  const navigate = useNavigate();
  const theme = useTheme();
  const documents = useQuery({ queryKey: vaultKeys.documents, queryFn: fetchDocuments, enabled: open });
  const sessions = useQuery({ queryKey: listKeys.sessions, queryFn: fetchSessions, enabled: open });
  const decks = useQuery({ queryKey: listKeys.decks, queryFn: fetchDecks, enabled: open });
  const quizzes = useQuery({ queryKey: listKeys.quizzes, queryFn: fetchQuizzes, enabled: open });
  const workshops = useQuery({ queryKey: listKeys.workshops, queryFn: fetchWorkshops, enabled: open });
  const mindmaps = useQuery({ queryKey: listKeys.mindmaps, queryFn: fetchMindmaps, enabled: open });
  const settled = useDebounced(open ? query.trim() : "", 250);
  const search = usePassageSearch(settled, { k: 6 });

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

  const studyItems = useMemo<PaletteItem[]>(() => {
    const entry = (kind: GeneratorKind, id: string, title: string, to: string, hint: string): PaletteItem => ({
      id: `${kind}:${id}`, label: title, group: "Study items", icon: KINDS[kind].icon,
      keywords: `${KINDS[kind].noun} ${kind} study`, hint, run: () => navigate(to),
    });
    return [
      ...(quizzes.data ?? []).map((q) => entry("quiz", q.id, q.title, `/study/quizzes/${encodeURIComponent(q.id)}`, "Quiz")),
      ...(decks.data ?? []).map((d) => entry("deck", d.id, d.title, `/study/decks/${encodeURIComponent(d.id)}`, "Flashcards")),
      ...(workshops.data ?? []).map((w) => entry("workshop", w.id, w.title, `/study/workshops/${encodeURIComponent(w.id)}`, "Workshop")),
      ...(mindmaps.data ?? []).map((m) => entry("mindmap", m.id, m.title, `/study/mindmaps/${encodeURIComponent(m.id)}`, "Mind map")),
    ];
  }, [quizzes.data, decks.data, workshops.data, mindmaps.data, navigate]);

  // Every document opens in the viewer (a PDF at its first page; other formats as their extracted text).
  const files = useMemo<PaletteItem[]>(() => (documents.data ?? []).map((doc) => ({
    id: `doc:${doc.id}`, label: doc.filename, group: "Documents", icon: FileText,
    keywords: `document file ${doc.category ?? ""} ${fileTypeLabel(doc.filename, doc.kind)}`,
    hint: [doc.category, fileTypeLabel(doc.filename, doc.kind)].filter(Boolean).join(" · "),
    run: () => navigate(viewerHref(doc.id)),
  })), [documents.data, navigate]);

  // Only the search for what is typed now: an answer for an older query would list unrelated passages.
  const current = search.data?.query === query.trim() ? search.data : undefined;
  // Passages above the relevance floor only, as the library search lists them; Markdown's marks dropped.
  const passages = useMemo<PaletteItem[]>(() => (current?.hits ?? []).filter((hit) => hit.relevant).map((hit) => {
    const snippet = hit.document_kind === "md" || hit.document_kind === "html" ? readableMarkdown(hit.snippet) : hit.snippet;
    const text = snippet.replace(/\s+/g, " ").trim();
    return {
      id: `passage:${hit.block_id}`, group: "Passages", icon: TextSearch,
      label: text.length > PASSAGE_LABEL_CHARS ? `${text.slice(0, PASSAGE_LABEL_CHARS - 1)}…` : text,
      hint: [hit.filename, hitPlace(hit), formatAlsoAt(hit.also_at, hit.document_kind)].filter(Boolean).join(" · "),
      run: () => navigate(viewerHref(hit.document_id, { block: hit.block_id, page: hit.page, q: current?.query })),
    };
  }), [current, navigate]);

  const items = useMemo(() => [...commands, ...due, ...studyItems, ...conversations, ...files, ...passages],
    [commands, due, studyItems, conversations, files, passages]);
  const searching = query.trim().length >= 2 && !current && (search.isFetching || settled !== query.trim());
  return { items, loading: documents.isPending || sessions.isPending || searching };
}
