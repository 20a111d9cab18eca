/**
 * Notes: Markdown written in Quire (or a chat answer saved with its sources), stored and indexed like an
 * uploaded document (`source_kind: "note"`). Shared by the library (write, edit), the viewer and chat.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson, apiSend } from "@/lib/api";
import type { components } from "./schema";
import { vaultKeys } from "./vault";

export type Note = components["schemas"]["NoteOut"];

const noteKey = (id: string) => ["notes", id] as const;

export function useNote(id: string | undefined) {
  return useQuery({ queryKey: noteKey(id ?? ""), queryFn: () => apiJson<Note>(`/api/notes/${encodeURIComponent(id ?? "")}`), enabled: Boolean(id) });
}

function useNoteSaved() {
  const queryClient = useQueryClient();
  return (note: Note) => {
    queryClient.setQueryData(noteKey(note.document_id), note);
    void queryClient.invalidateQueries({ queryKey: vaultKeys.documents });
  };
}

export function useCreateNote() {
  return useMutation({
    mutationFn: (input: { title: string; markdown: string; category?: string | null }) => apiSend<Note>("POST", "/api/notes", input),
    onSuccess: useNoteSaved(),
  });
}

export function useEditNote(id: string) {
  return useMutation({
    mutationFn: (markdown: string) => apiSend<Note>("PUT", `/api/notes/${encodeURIComponent(id)}`, { markdown }),
    onSuccess: useNoteSaved(),
  });
}

/** Save a chat answer (its question, text and sources) as a new note. */
export function useSaveAnswerAsNote() {
  return useMutation({
    mutationFn: (input: { session_id: string; message_id: string }) => apiSend<Note>("POST", "/api/notes/from-answer", input),
    onSuccess: useNoteSaved(),
  });
}
