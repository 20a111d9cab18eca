/**
 * The trash (API-11): documents moved there are hidden from search and chat; they can be restored
 * (with their passages and embeddings, no re-ingestion), deleted for good, or the trash emptied.
 * Trash queries sit under the documents key, so any change to the library refreshes them too.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { vaultKeys } from "@/api/vault";
import { apiJson, apiSend } from "@/lib/api";
import type { LibraryDocument, TrashEmptied } from "./types";

export const trashKey = [...vaultKeys.documents, "trashed"] as const;

export function fetchTrash(): Promise<LibraryDocument[]> {
  return apiJson<LibraryDocument[]>("/api/documents?status=trashed");
}

export function useTrash() {
  return useQuery({ queryKey: trashKey, queryFn: fetchTrash });
}

function useLibraryMutation<TArgs, TResult>(mutationFn: (args: TArgs) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: vaultKeys.documents });
      void queryClient.invalidateQueries({ queryKey: vaultKeys.categories });
    },
  });
}

/** Out of the trash; if its name was taken meanwhile it comes back as `Name (n).ext`. */
export function useRestoreDocument() {
  return useLibraryMutation((id: string) =>
    apiSend<LibraryDocument>("POST", `/api/documents/${encodeURIComponent(id)}/restore`));
}

export function useDeleteForever() {
  return useLibraryMutation((id: string) =>
    apiSend<void>("DELETE", `/api/documents/${encodeURIComponent(id)}?permanent=true`));
}

export function useEmptyTrash() {
  return useLibraryMutation(() => apiSend<TrashEmptied>("DELETE", "/api/trash"));
}
